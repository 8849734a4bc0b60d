/// The ITU-R BT.709 colour matrix between gamma-encoded R'G'B' and Y'CbCr, in 8 bits.
///
/// Video range puts Y' on 16…235 and Cb/Cr on 16…240; full range uses 0…255 for all three.
public enum BT709 {
    public static let redWeight: Float = 0.2126
    public static let greenWeight: Float = 0.7152
    public static let blueWeight: Float = 0.0722

    /// Y', Cb, Cr (8-bit) of an 8-bit R'G'B' colour, in 16-bit fixed point, rounded half up: the
    /// simulated camera encodes every pixel with it, and integers need no float-to-integer
    /// conversion per sample (BENCHMARKS.md, the nv12 read-out).
    @inlinable @inline(__always)
    public static func encode(red: UInt8, green: UInt8, blue: UInt8, range: YCbCrRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let weights = EncodeWeights(range)
        let (r, g, b) = (Int32(red), Int32(green), Int32(blue))
        let half: Int32 = 1 << 15
        let y = (weights.lumaRed &* r &+ weights.lumaGreen &* g &+ weights.lumaBlue &* b &+ weights.lumaOffset &+ half) &>> 16
        let cb = (weights.blueRed &* r &+ weights.blueGreen &* g &+ weights.blueBlue &* b &+ (128 << 16) &+ half) &>> 16
        let cr = (weights.redRed &* r &+ weights.redGreen &* g &+ weights.redBlue &* b &+ (128 << 16) &+ half) &>> 16
        return (clampedByte(y), clampedByte(cb), clampedByte(cr))
    }

    /// `value` clamped to 0…255.
    @inlinable @inline(__always)
    static func clampedByte(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// 8-bit R'G'B' of a Y'CbCr colour, rounded half up.
    @inlinable @inline(__always)
    public static func decode(y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> (red: UInt8, green: UInt8, blue: UInt8) {
        // Fixed point, as `encode`: this runs per sample in the metering pass and the preview scaler.
        let weights = DecodeWeights(range)
        let luma = weights.luma &* (Int32(y) &- weights.lumaOffset) &+ (1 << 15)
        let pb = Int32(cb) &- 128, pr = Int32(cr) &- 128
        let red = (luma &+ weights.redFromCr &* pr) &>> 16
        let green = (luma &- weights.greenFromCr &* pr &- weights.greenFromCb &* pb) &>> 16
        let blue = (luma &+ weights.blueFromCb &* pb) &>> 16
        return (clampedByte(red), clampedByte(green), clampedByte(blue))
    }

    /// Full-range 8-bit Y' of 8-bit R'G'B' in integers (weights 54, 183, 19 out of 256), for
    /// per-pixel loops.
    @inlinable @inline(__always)
    public static func luma8(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (weightedLuma8(red: UInt32(red), green: UInt32(green), blue: UInt32(blue)) &+ 128) >> 8)
    }
    /// `luma8` × 256 before rounding (0…65 280), for thresholds finer than one code value.
    @inlinable @inline(__always)
    public static func weightedLuma8(red: UInt32, green: UInt32, blue: UInt32) -> UInt32 {
        54 &* red &+ 183 &* green &+ 19 &* blue
    }
}

/// The BT.709 encode matrix for 8-bit samples, × 2¹⁶: Y' = 16 + 219/255 · (0.2126 R' + 0.7152 G' +
/// 0.0722 B') in video range, Cb = (B' − Y)/1.8556 and Cr = (R' − Y)/1.5748 scaled by 224/255.
/// Public for vector loops that encode many pixels at once as `BT709.encode` does one.
public struct EncodeWeights: Sendable {
    public let lumaRed, lumaGreen, lumaBlue, lumaOffset: Int32
    public let blueRed, blueGreen, blueBlue: Int32
    public let redRed, redGreen, redBlue: Int32

    @inlinable @inline(__always)
    public init(_ range: YCbCrRange) {
        let (lumaScale, offset, chromaScale) = range == .video ? (219.0 / 255, 16.0, 224.0 / 255) : (1.0, 0.0, 1.0)
        let (red, green, blue) = (0.2126, 0.7152, 0.0722)
        func fixed(_ value: Double) -> Int32 { Int32((value * 65_536).rounded()) }
        (lumaRed, lumaGreen, lumaBlue, lumaOffset) = (fixed(red * lumaScale), fixed(green * lumaScale), fixed(blue * lumaScale), fixed(offset))
        let toBlue = chromaScale / 1.8556, toRed = chromaScale / 1.5748
        (blueRed, blueGreen, blueBlue) = (fixed(-red * toBlue), fixed(-green * toBlue), fixed((1 - blue) * toBlue))
        (redRed, redGreen, redBlue) = (fixed((1 - red) * toRed), fixed(-green * toRed), fixed(-blue * toRed))
    }
}

/// The BT.709 decode matrix for 8-bit samples, × 2¹⁶: R' = Y + 1.5748 Cr, B' = Y + 1.8556 Cb,
/// G' = Y − (0.2126 · 1.5748 Cr + 0.0722 · 1.8556 Cb) / 0.7152, Y and Cb/Cr scaled back from video range.
@usableFromInline
struct DecodeWeights {
    @usableFromInline let luma, lumaOffset: Int32
    @usableFromInline let redFromCr, blueFromCb, greenFromCr, greenFromCb: Int32

    @inlinable @inline(__always)
    init(_ range: YCbCrRange) {
        let (lumaScale, offset, chromaScale) = range == .video ? (255.0 / 219, Int32(16), 255.0 / 224) : (1.0, Int32(0), 1.0)
        func fixed(_ value: Double) -> Int32 { Int32((value * 65_536).rounded()) }
        (luma, lumaOffset) = (fixed(lumaScale), offset)
        (redFromCr, blueFromCb) = (fixed(1.5748 * chromaScale), fixed(1.8556 * chromaScale))
        (greenFromCr, greenFromCb) = (fixed(0.2126 * 1.5748 / 0.7152 * chromaScale), fixed(0.0722 * 1.8556 / 0.7152 * chromaScale))
    }
}
