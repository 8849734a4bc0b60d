import Foundation

/// How high the sensor exposure may go before the highlights clip beyond the budget, found by
/// bisection between the frames that clipped and those that did not. The highlights' level cannot
/// be read while they clip, and the level read below it can lie: where cells of a light source
/// hold darker pixels, the brightest 2% outside light sources read up to 1.9 EV lower than they
/// are (night-street), and the exposure rose into the clipping, stepped down, and rose again. So
/// the loop keeps the lowest exposure seen clipping and the highest below it seen clean, probes
/// halfway between them until they are `resolution` apart, and then holds the clean one — the
/// same exposure from wherever it started. Exposures are kept relative to the scene's level (the
/// frame's mean linear luminance over its exposure), so the bracket follows the light.
struct ClippingLimit {
    /// log2 exposure + scene level of the lowest frame that clipped beyond the budget.
    private var clipping: Double?
    /// log2 exposure + scene level of the highest frame under `clipping` that did not.
    private var clean: Double?

    /// How narrow the bracket gets before the loop holds its clean end (EV): the converged band.
    static let resolution = 1.0 / 6

    /// Records a frame at log2 exposure `exposure`, scene level `scene`, that clipped beyond the budget.
    mutating func clipped(exposure: Double, scene: Double) {
        let level = exposure + scene
        clipping = min(clipping ?? level, level)
        if let clean, clean >= level { self.clean = nil }
    }

    /// Records a frame that clipped within the budget.
    mutating func unclipped(exposure: Double, scene: Double) {
        let level = exposure + scene
        guard let clipping, level < clipping else { return }
        clean = max(clean ?? level, level)
    }

    /// Forgets the bracket: on a frame where nothing clips at all, the highlights that set it have
    /// gone (a window panned out of view). Light sources keep clipping, so a lying reading beside
    /// them never lets it go.
    mutating func release() {
        clipping = nil
        clean = nil
    }

    /// `wanted` (log2 exposure) kept under the bracket for a scene at level `scene`: halfway into it
    /// while it is wide, at its clean end once it is narrow, and `SunAwareExposure.clippedStep`
    /// under the clipping exposure before any frame under it was clean.
    func cap(_ wanted: Double, scene: Double) -> Double {
        guard let clipping else { return wanted }
        guard let clean else { return min(wanted, clipping - SunAwareExposure.clippedStep - scene) }
        let bound = clipping - clean > ClippingLimit.resolution ? (clean + clipping) / 2 : clean
        return min(wanted, bound - scene)
    }

    /// The scene level of a frame: log2 of its mean linear luminance over its log2 exposure.
    static func sceneLevel(linearMean: Double, exposure: Double) -> Double {
        log2(max(linearMean, 1.0 / 4096)) - exposure
    }
}
