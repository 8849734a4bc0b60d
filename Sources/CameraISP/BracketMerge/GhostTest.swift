/// Whether a frame's cell agrees with the reference's within `threshold` standard deviations.
/// Samples unclipped in both agree when the sum of their differences does; a clipped sample says
/// only that the signal reaches its clip level, so the other frame's sample there must reach that
/// level less `threshold` standard deviations of its noise.
struct GhostTest {
    private let thresholdSquared: Float
    /// Where the reference is clipped, the least value this frame may show.
    private let frameFloor: Float
    /// Where this frame is clipped, the least value the reference may show.
    private let referenceFloor: Float

    init(frame: FrameScale, reference: FrameScale, threshold: Float) {
        thresholdSquared = threshold * threshold
        let frameSpread = (frame.varianceSlope * reference.clipLevel + frame.varianceFloor).squareRoot()
        frameFloor = reference.clipLevel - threshold * frameSpread
        let referenceSpread = (reference.varianceSlope * frame.clipLevel + reference.varianceFloor).squareRoot()
        referenceFloor = frame.clipLevel - threshold * referenceSpread
    }

    @inline(__always)
    func agrees(value: SIMD4<Float>, clipped: SIMDMask<SIMD4<Int32>>, variance: SIMD4<Float>, referenceValue: SIMD4<Float>,
                referenceClipped: SIMDMask<SIMD4<Int32>>, referenceVariance: SIMD4<Float>) -> Bool {
        let both = .!clipped .& .!referenceClipped
        let difference = SIMD4<Float>.zero.replacing(with: value - referenceValue, where: both).sum()
        let spread = SIMD4<Float>.zero.replacing(with: variance + referenceVariance, where: both).sum()
        guard difference * difference <= thresholdSquared * spread else { return false }
        let frameTooLow = referenceClipped .& .!clipped .& (value .< frameFloor)
        let referenceTooLow = clipped .& .!referenceClipped .& (referenceValue .< referenceFloor)
        return !any(frameTooLow .| referenceTooLow)
    }
}
