/// A bracket frame's samples on the reference's scale: value = (raw − black) / (white − black) ×
/// reference exposure / this exposure, so 1 is the reference's white level. Samples within three
/// standard deviations of the frame's white level count as clipped: noise may have carried a
/// clipped sample down that far.
struct FrameScale {
    /// Reference units per raw step.
    let gain: Float
    /// The raw black level.
    let black: Float
    /// The first raw value treated as clipped.
    let clipRaw: Float
    /// The clip threshold in reference units: what a clipped sample says at least.
    let clipLevel: Float
    /// Variance in reference units at reference-unit signal v: `varianceSlope` · v + `varianceFloor`.
    let varianceSlope: Float
    let varianceFloor: Float
    /// Reference exposure / this exposure.
    let ratio: Double

    init(_ frame: BracketFrame, referenceExposure: Double) {
        let range = Double(frame.calibration.whiteLevel - frame.calibration.blackLevel)
        ratio = referenceExposure / frame.exposure
        gain = Float(ratio / range)
        black = Float(frame.calibration.blackLevel)
        let margin = 3 * frame.noise.variance(at: 1).squareRoot() * range
        let clip = max(Double(frame.calibration.blackLevel + 1), Double(frame.calibration.whiteLevel) - margin.rounded(.up))
        clipRaw = Float(clip)
        clipLevel = Float((clip - Double(frame.calibration.blackLevel)) / range * ratio)
        // A reference-unit value v is v / ratio in the frame's units; its variance scales by ratio².
        varianceSlope = Float(frame.noise.scale * ratio)
        varianceFloor = Float(frame.noise.offset * ratio * ratio)
    }

    /// Four samples' values in reference units, and which of them are clipped.
    @inline(__always)
    func read(_ raw: SIMD4<UInt16>) -> (values: SIMD4<Float>, clipped: SIMDMask<SIMD4<Int32>>) {
        let samples = SIMD4<Float>(raw)
        return ((samples - black) * gain, samples .>= clipRaw)
    }
}
