import CameraCore

/// Linear 0…1 → 8-bit sRGB by table, for the per-pixel output loops.
enum SRGBEncodeTable {
    /// Entries over 0…1: 16 384 keeps each step under 0.25 of an 8-bit code even in the steep
    /// linear toe (slope 12.92), and the 16 KB table stays in the L1 cache.
    static let size = 16_384

    /// `SRGB.encode` of each entry's linear value, rounded to 8 bits.
    static let table: [UInt8] = (0..<size).map { UInt8((SRGB.encode(Double($0) / Double(size - 1)) * 255).rounded()) }

    /// The table index of eight linear values (never negative; capped at 1, rounded to the
    /// nearest entry), masked to the table's size so that even a NaN reads inside it.
    @inline(__always)
    static func index(_ linear: SIMD8<Float>) -> SIMD8<Int32> {
        FastMath.rounded(FastMath.minimum(linear, 1) * Float(size - 1)) & Int32(size - 1)
    }
}
