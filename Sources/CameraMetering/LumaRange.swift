/// Video-range luma (16–235) to full range (0–255).
enum LumaRange {
    /// The full-range value of a video-range luma value (16 → 0, 235 → 255, clamped), rounded
    /// to nearest, in fixed point: 255/219 ≈ 76309/65536. (298/256 is too coarse: it rounds eight
    /// values, e.g. 86 and 232, one step low.)
    @inline(__always)
    static func fullRange(videoLuma value: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(((Int(value) &- 16) &* 76_309 &+ 32_768) >> 16, 0), 255))
    }
}
