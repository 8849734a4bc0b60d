import Foundation

/// Lookup tables between the 8-bit values a frame stores and linear light.
enum TransferCurve {
    /// The sRGB decoding of each 8-bit value, 0…1 linear.
    static let linear: [Float] = (0..<256).map { value in
        let x = Double(value) / 255
        return Float(x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4))
    }

    /// The full-range value of a video-range luma value (16 → 0, 235 → 255, clamped), rounded
    /// to nearest, in fixed point: 255/219 ≈ 76309/65536. (298/256 is too coarse: it rounds eight
    /// values, e.g. 86 and 232, one step low.)
    @inline(__always)
    static func fullRange(videoLuma value: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(((Int(value) &- 16) &* 76_309 &+ 32_768) >> 16, 0), 255))
    }

    /// The linear value of an encoded brightness 0…1 (exact sRGB curve).
    static func decode(_ encoded: Double) -> Double {
        let x = min(max(encoded, 0), 1)
        return x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }
}
