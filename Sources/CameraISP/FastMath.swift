/// log2 and exp2 of eight floats at once, from the float's exponent bits and a short polynomial:
/// the tone mapper's per-pixel loops need them for every pixel, and the standard library's
/// `log2`/`exp2` are scalar calls that would cost more than the rest of the loop.
///
/// Only float multiplies and adds and integer bit operations, so the loops stay vectorized. Not
/// `addingProduct`: built without FMA in the target, each lane of it is a call to libm's `fmaf`.
enum FastMath {
    /// log2 of `x` within 1.3·10⁻⁴ (a hundredth of an 8-bit step) for normal positive floats (callers add `smallestLuminance`).
    @inline(__always)
    static func log2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
        let exponent = float(bits &>> 23) - 127
        // The mantissa as a float in [1, 2); the polynomial is log2(1 + t) on t in [0, 1), a
        // least-squares fit of degree 4 that is exact at both ends, so octaves join continuously.
        let mantissa = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
        let t = mantissa - 1
        var p = t * -0.080_653_163 + 0.318_154_492
        p = p * t - 0.675_880_659
        p = p * t + 1.438_379_330
        return p * t + exponent
    }

    /// 2^x within 8·10⁻⁵ relative for x in −126…126 (the tone curve's gains are within ±40).
    @inline(__always)
    static func exp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // Adding 1.5·2²³ rounds to the nearest integer in the low mantissa bits, with no
        // float-to-integer conversion; the fraction left is in −0.5…0.5.
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let shifted = x + magic
        let whole = shifted - magic
        let f = x - whole
        let integer = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        // 2^f on −0.5…0.5: a degree-3 least-squares fit in relative error.
        var p = f * 0.055_088_725 + 0.242_604_354
        p = p * f + 0.693_276_263
        p = p * f + 0.999_928_923
        let scale = unsafeBitCast((integer &+ 127) &<< 23, to: SIMD8<Float>.self)
        return p * scale
    }

    /// `value` with negative lanes set to 0, by masking with the sign bits: exact, and plain
    /// integer vector code, where the standard library's `pointwiseMax`, `clamped` and
    /// `replacing(with:where:)` compile to per-lane code in these loops.
    @inline(__always)
    static func nonNegative(_ value: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(value, to: SIMD8<Int32>.self)
        return unsafeBitCast(bits & ~(bits &>> 31), to: SIMD8<Float>.self)
    }

    /// The smaller of `value` (≥ 0) and `ceiling` (≥ 0) in each lane, exactly: non-negative
    /// floats order as their bit patterns do, so the integer difference's sign picks the lane.
    @inline(__always)
    static func minimum(_ value: SIMD8<Float>, _ ceiling: Float) -> SIMD8<Float> {
        let bits = unsafeBitCast(value, to: SIMD8<Int32>.self), top = Int32(bitPattern: ceiling.bitPattern)
        let difference = bits &- top
        return unsafeBitCast(top &+ (difference & (difference &>> 31)), to: SIMD8<Float>.self)
    }

    /// The float of each integer in 0…2²²: placed in the mantissa of 2²³ and 2²³ subtracted, as
    /// the standard library's SIMD conversions compile to scalar code.
    @inline(__always)
    static func float(_ integer: SIMD8<Int32>) -> SIMD8<Float> {
        unsafeBitCast(integer | 0x4B00_0000, to: SIMD8<Float>.self) - 8_388_608
    }

    /// The nearest integer to each float in 0…2²², by the same placement (no conversion
    /// instruction, no trap).
    @inline(__always)
    static func rounded(_ value: SIMD8<Float>) -> SIMD8<Int32> {
        unsafeBitCast(value + 8_388_608, to: SIMD8<Int32>.self) & 0x007F_FFFF
    }
}
