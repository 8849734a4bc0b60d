import Foundation

/// How high the sensor exposure may go before the highlights clip beyond the budget, learnt from a
/// frame that clipped. The highlights' level cannot be read while they clip, and the level read
/// below it can lie: where cells of a light source hold darker pixels, the brightest 2% outside
/// light sources read lower than they are, and the exposure rose into the clipping, stepped down,
/// and rose again (night-street went round every two or three frames). So a clipping frame sets a
/// limit half a stop under its exposure, kept relative to the scene's level (its mean linear
/// luminance over the exposure), so that the limit follows the light, until the view changes.
struct ClippingLimit {
    /// log2 exposure + scene level at the limit.
    private var limit: Double?

    /// EV under a clipping exposure the limit is set at.
    static let margin = 0.5

    /// Records a frame at log2 exposure `exposure`, scene level `scene`, that clipped beyond the budget.
    mutating func clipped(exposure: Double, scene: Double) {
        let new = exposure + scene - ClippingLimit.margin
        limit = min(limit ?? new, new)
    }

    /// `wanted` (log2 exposure) kept under the limit for a scene at level `scene`.
    func cap(_ wanted: Double, scene: Double) -> Double {
        limit.map { min(wanted, $0 - scene) } ?? wanted
    }

    /// The scene level of a frame: log2 of its mean linear luminance over its log2 exposure.
    static func sceneLevel(linearMean: Double, exposure: Double) -> Double {
        log2(max(linearMean, 1.0 / 4096)) - exposure
    }
}
