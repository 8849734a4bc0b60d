/// The ITU-R BT.709 colour matrix between gamma-encoded R'G'B' and Y'CbCr, in 8 bits.
///
/// Video range puts Y' on 16…235 and Cb/Cr on 16…240; full range uses 0…255 for all three.
public enum BT709 {
    public static let redWeight: Float = 0.2126
    public static let greenWeight: Float = 0.7152
    public static let blueWeight: Float = 0.0722

    /// Y', Cb, Cr (8-bit) of an 8-bit R'G'B' colour.
    @inlinable @inline(__always)
    public static func encode(red: Float, green: Float, blue: Float, range: YCbCrRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let luma = redWeight * red + greenWeight * green + blueWeight * blue
        let cb = (blue - luma) * (1 / 1.8556), cr = (red - luma) * (1 / 1.5748)
        let (lumaScale, lumaOffset, chromaScale): (Float, Float, Float) =
            range == .video ? (219.0 / 255, 16, 224.0 / 255) : (1, 0, 1)
        return (byte(luma * lumaScale + lumaOffset), byte(128 + cb * chromaScale), byte(128 + cr * chromaScale))
    }

    /// 8-bit R'G'B' of a Y'CbCr colour.
    @inlinable @inline(__always)
    public static func decode(y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> (red: UInt8, green: UInt8, blue: UInt8) {
        // Constant factors, not divisions: this runs per sample in the metering pass.
        let (lumaScale, chromaScale): (Float, Float) = range == .video ? (255.0 / 219, 255.0 / 224) : (1, 1)
        let luma = (Float(y) - (range == .video ? 16 : 0)) * lumaScale
        let pb = (Float(cb) - 128) * chromaScale, pr = (Float(cr) - 128) * chromaScale
        let red = luma + 1.5748 * pr
        let blue = luma + 1.8556 * pb
        let green = (luma - redWeight * red - blueWeight * blue) * (1 / greenWeight)
        return (byte(red), byte(green), byte(blue))
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

    /// Rounds and clamps to 0…255 (halves round up).
    ///
    /// Per-pixel loops call this, so it converts without `Int32(Float)`, whose range checks cost
    /// more than the arithmetic: adding 2²³ to a value in 0…255 leaves it, rounded to the nearest
    /// whole number, in the float's low mantissa bits; one compare turns that into the rounding
    /// down of `value + 0.5` (faster here than `rounded(.down)`, and the same on every x86-64).
    @inlinable @inline(__always)
    public static func byte(_ value: Float) -> UInt8 {
        let clamped = min(max(value + 0.5, 0), 255)
        let shifted = clamped + 0x1p23
        let nearest = Int32(truncatingIfNeeded: shifted.bitPattern & 0x1FF)
        return UInt8(truncatingIfNeeded: shifted - 0x1p23 > clamped ? nearest &- 1 : nearest)
    }
}
