import CameraCore
import Testing

@Suite("BT709")
struct BT709Tests {
    /// The BT.709 matrix in floating point, rounded half up: what the fixed-point forms stand for.
    static func reference(red: Double, green: Double, blue: Double, range: YCbCrRange) -> (y: Int, cb: Int, cr: Int) {
        let luma = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        let (lumaScale, offset, chromaScale) = range == .video ? (219.0 / 255, 16.0, 224.0 / 255) : (1.0, 0.0, 1.0)
        func rounded(_ value: Double) -> Int { Int(min(max((value + 0.5).rounded(.down), 0), 255)) }
        return (rounded(luma * lumaScale + offset), rounded(128 + (blue - luma) / 1.8556 * chromaScale),
                rounded(128 + (red - luma) / 1.5748 * chromaScale))
    }

    /// Every R'G'B' colour whose channels run from 0 to 255 in steps of `step`.
    static func grid(step: Int) -> [(Int, Int, Int)] {
        let levels = Array(stride(from: 0, through: 255, by: step))
        return levels.flatMap { red in levels.flatMap { green in levels.map { blue in (red, green, blue) } } }
    }

    @Test("The fixed-point encode is the floating-point matrix within one code value, over a grid of R'G'B'",
          arguments: [YCbCrRange.video, .full])
    func encodeMatchesTheMatrix(range: YCbCrRange) {
        let worst = Self.grid(step: 5).map { red, green, blue in
            let ours = BT709.encode(red: UInt8(red), green: UInt8(green), blue: UInt8(blue), range: range)
            let expected = Self.reference(red: Double(red), green: Double(green), blue: Double(blue), range: range)
            return max(abs(Int(ours.y) - expected.y), abs(Int(ours.cb) - expected.cb), abs(Int(ours.cr) - expected.cr))
        }.max() ?? 0
        #expect(worst <= 1)
        #expect(BT709.encode(red: 255, green: 255, blue: 255, range: range) == (range == .video ? (235, 128, 128) : (255, 128, 128)))
        #expect(BT709.encode(red: 0, green: 0, blue: 0, range: range) == (range == .video ? (16, 128, 128) : (0, 128, 128)))
    }

    @Test("Decoding an encoded colour gives it back within two code values per channel, over a grid of R'G'B'",
          arguments: [YCbCrRange.video, .full])
    func decodeInvertsEncode(range: YCbCrRange) {
        let worst = Self.grid(step: 15).map { red, green, blue in
            let ycbcr = BT709.encode(red: UInt8(red), green: UInt8(green), blue: UInt8(blue), range: range)
            let rgb = BT709.decode(y: ycbcr.y, cb: ycbcr.cb, cr: ycbcr.cr, range: range)
            return max(abs(Int(rgb.red) - red), abs(Int(rgb.green) - green), abs(Int(rgb.blue) - blue))
        }.max() ?? 0
        #expect(worst <= 2, "worst \(worst)")
    }

    @Test("decoding an encoded grey gives the grey back, in either range", arguments: [YCbCrRange.video, .full])
    func greyRoundTrip(range: YCbCrRange) {
        for grey in [0, 1, 16, 128, 235, 254, 255] as [UInt8] {
            let ycbcr = BT709.encode(red: grey, green: grey, blue: grey, range: range)
            let rgb = BT709.decode(y: ycbcr.y, cb: ycbcr.cb, cr: ycbcr.cr, range: range)
            for channel in [rgb.red, rgb.green, rgb.blue] { #expect(abs(Int(channel) - Int(grey)) <= 1, "grey \(grey) → \(rgb)") }
        }
    }
}
