import CameraCore

/// What a frame's pixels say about the ground truth: the subject's and the whole frame's mean
/// linear luminance and the clipped (luma ≥ 250) and crushed (≤ 5) fractions outside the sun — how
/// `ae-eval` and the flash tests judge an exposure.
public struct GroundTruthReading: Sendable {
    public let subjectLinearMean: Double
    public let frameLinearMean: Double
    public let nonSunClippedFraction: Double
    public let nonSunCrushedFraction: Double

    public init(_ buffer: PixelBuffer, truth: SimulatedGroundTruth) {
        let rgb = buffer.rgb8()
        let linear = SRGB.linearOf8Bit
        var subjectSum = 0.0, subjectCount = 0, frameSum = 0.0, clipped = 0, crushed = 0, others = 0
        let pixelCount = buffer.width * buffer.height
        for i in 0..<pixelCount {
            let (red, green, blue) = (rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2])
            let (r, g, b) = (Int(red), Int(green), Int(blue))
            let luminance = Double(BT709.redWeight * linear[r] + BT709.greenWeight * linear[g] + BT709.blueWeight * linear[b])
            frameSum += luminance
            if truth.subjectMask[i] == 1 {
                subjectSum += luminance
                subjectCount += 1
            }
            if truth.sunMask[i] == 0 {
                others += 1
                let luma = BT709.luma8(red: red, green: green, blue: blue)
                if luma >= 250 { clipped += 1 }
                if luma <= 5 { crushed += 1 }
            }
        }
        subjectLinearMean = subjectCount > 0 ? subjectSum / Double(subjectCount) : 0
        frameLinearMean = pixelCount > 0 ? frameSum / Double(pixelCount) : 0
        nonSunClippedFraction = others > 0 ? Double(clipped) / Double(others) : 0
        nonSunCrushedFraction = others > 0 ? Double(crushed) / Double(others) : 0
    }
}
