import CameraCore
import Testing

@Suite("BT709")
struct BT709Tests {
    @Test("byte rounds halves up and clamps to 0…255",
          arguments: [(Float(-3), UInt8(0)), (-0.5, 0), (0.49, 0), (0.5, 1), (1.5, 2), (2.5, 3), (127.499, 127), (127.5, 128),
                      (254.5, 255), (255, 255), (300, 255), (.infinity, 255), (-.infinity, 0)])
    func byteRounds(value: Float, expected: UInt8) {
        #expect(BT709.byte(value) == expected)
    }

    @Test("byte equals rounding value + 0.5 down, in steps of 1/64 from -2 to 258")
    func byteSweep() {
        for step in -128...(258 * 64) {
            let value = Float(step) / 64
            let expected = UInt8(min(max((value + 0.5).rounded(.down), 0), 255))
            #expect(BT709.byte(value) == expected, "byte(\(value))")
        }
    }

    @Test("decoding an encoded grey gives the grey back, in either range", arguments: [YCbCrRange.video, .full])
    func greyRoundTrip(range: YCbCrRange) {
        for grey in [0, 1, 16, 128, 235, 254, 255] as [UInt8] {
            let ycbcr = BT709.encode(red: Float(grey), green: Float(grey), blue: Float(grey), range: range)
            let rgb = BT709.decode(y: ycbcr.y, cb: ycbcr.cb, cr: ycbcr.cr, range: range)
            for channel in [rgb.red, rgb.green, rgb.blue] { #expect(abs(Int(channel) - Int(grey)) <= 1, "grey \(grey) → \(rgb)") }
        }
    }
}
