/// The per-lane operations of the denoiser's loops that the standard library's SIMD API compiles
/// to one lane at a time (`squareRoot()`, taking the division before it along; comparisons into a
/// `SIMDMask`; `replace(with:where:)`), written with float multiply-adds and integer bit operations
/// so the loops stay eight lanes wide.
enum DenoiserMath {
    /// √`x` for finite `x` ≥ 0, within 5·10⁻⁶ relative (exactly 0 for 0): `x`·(1/√`x`), the
    /// reciprocal from its bit-pattern estimate (3.4%) and two Newton steps.
    @inline(__always)
    static func squareRoot(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
        var y = unsafeBitCast(0x5F37_5A86 &- (bits &>> 1), to: SIMD8<Float>.self)
        let half = x * 0.5
        y = y * (1.5 - half * y * y)
        y = y * (1.5 - half * y * y)
        return x * y
    }

    /// All ones in the lanes where `value` ≥ `threshold` ≥ 0, zero elsewhere (negative lanes
    /// never reach it): non-negative floats order as their bit patterns do.
    @inline(__always)
    static func atLeast(_ value: SIMD8<Float>, _ threshold: Float) -> SIMD8<Int32> {
        let difference = unsafeBitCast(value, to: SIMD8<Int32>.self) &- Int32(bitPattern: threshold.bitPattern)
        return ~(difference &>> 31)
    }

    /// `value` with `replacement` in the lanes where `mask` is all ones.
    @inline(__always)
    static func replacing(_ value: SIMD8<Float>, with replacement: Float, where mask: SIMD8<Int32>) -> SIMD8<Float> {
        let bits = unsafeBitCast(value, to: SIMD8<Int32>.self)
        let chosen = (bits & ~mask) | (Int32(bitPattern: replacement.bitPattern) & mask)
        return unsafeBitCast(chosen, to: SIMD8<Float>.self)
    }
}
