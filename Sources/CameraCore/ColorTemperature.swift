import Foundation

/// The colour of a light as a correlated colour temperature and a tint: a point on the Planckian
/// (black-body) locus, moved perpendicular to it.
///
/// The model, shared by the simulated camera (which lights scenes with it) and the white-balance
/// engine (which inverts it):
/// - the locus in CIE 1960 (u, v) is Krystek's rational approximation (1985, |Δuv| < 1e-4 over
///   1000…15000 K);
/// - `tint` moves the point along the locus's normal by `tint / 1000` Δuv; positive is above the
///   locus (greener, Duv > 0), negative below it (magenta);
/// - (u, v) → CIE xy → XYZ → linear Rec. 709 / sRGB primaries;
/// - colours are relative to the 6500 K locus point, the white the scenes are painted under:
///   `ColorTemperature(6500).relativeRGB` is exactly (1, 1, 1).
///
/// ```swift
/// let halogen = ColorTemperature(3500)
/// halogen.relativeRGB                           // ≈ (1.50, 0.91, 0.39): red-heavy, unit luminance
/// ColorTemperature(relativeRGB: halogen.relativeRGB)?.kelvin   // 3500
/// ```
public struct ColorTemperature: Sendable, Hashable, CustomStringConvertible {
    /// Correlated colour temperature in kelvin.
    public var kelvin: Double
    /// Offset from the locus in thousandths of Δuv (CIE 1960); positive is greener.
    public var tint: Double

    public init(_ kelvin: Double, tint: Double = 0) {
        self.kelvin = kelvin
        self.tint = tint
    }

    /// The temperatures the model is used over (the locus approximation holds well beyond).
    public static let range: ClosedRange<Double> = 2000...12000
    /// The tints accepted for manual white balance (±0.05 Δuv: far beyond any real lamp).
    public static let tintRange: ClosedRange<Double> = -50...50
    /// The light the scenes' colours are defined under: 6500 K on the locus, RGB (1, 1, 1).
    public static let reference = ColorTemperature(6500)

    public var description: String {
        let kelvinText = String(Int(kelvin.rounded()))
        return tint == 0 ? "\(kelvinText) K" : "\(kelvinText) K tint \((tint * 10).rounded() / 10)"
    }

    // MARK: Chromaticity

    /// CIE 1960 (u, v) of the black body at `kelvin` (Krystek 1985).
    public static func locus(_ kelvin: Double) -> SIMD2<Double> {
        let t = kelvin, t2 = kelvin * kelvin
        let u = (0.860_117_757 + 1.541_182_54e-4 * t + 1.286_412_12e-7 * t2) / (1 + 8.424_202_35e-4 * t + 7.081_451_63e-7 * t2)
        let v = (0.317_398_726 + 4.228_062_45e-5 * t + 4.204_816_91e-8 * t2) / (1 - 2.897_418_16e-5 * t + 1.614_560_53e-7 * t2)
        return SIMD2(u, v)
    }

    /// The unit normal of the locus at `kelvin`, pointing to positive tint (larger v, greener).
    public static func locusNormal(_ kelvin: Double) -> SIMD2<Double> {
        let step = kelvin * 1e-4
        let tangent = locus(kelvin + step) - locus(kelvin - step)
        var normal = SIMD2(tangent.y, -tangent.x)
        if normal.y < 0 { normal = -normal }
        return normal / (normal * normal).sum().squareRoot()
    }

    /// CIE 1960 (u, v) of this light.
    public var chromaticity: SIMD2<Double> {
        ColorTemperature.locus(kelvin) + ColorTemperature.locusNormal(kelvin) * (tint / 1000)
    }

    // MARK: RGB

    /// Linear Rec. 709 RGB of this light relative to the reference (6500 K → (1, 1, 1)), scaled
    /// to unit Rec. 709 luminance. Channels are floored at 1e-4 (a light far below 2000 K or far
    /// off the locus has almost no blue in Rec. 709).
    public var relativeRGB: SIMD3<Double> {
        let rgb = ColorTemperature.absoluteRGB(uv: chromaticity) / ColorTemperature.referenceRGB
        let floored = rgb.replacing(with: 1e-4, where: rgb .< 1e-4)
        return floored / ColorTemperature.luminance(floored)
    }

    /// The light whose `relativeRGB` has the chromaticity of `rgb` (any positive scale): the
    /// closest point of the locus within `range` in CIE 1960 (u, v) — the definition of
    /// correlated colour temperature — and the signed distance from it as the tint. Nil when
    /// `rgb` has no chromaticity (not finite, or its XYZ sum is not positive).
    public init?(relativeRGB rgb: SIMD3<Double>) {
        guard rgb.x.isFinite, rgb.y.isFinite, rgb.z.isFinite else { return nil }
        let xyz = ColorTemperature.xyzFromRGB(rgb * ColorTemperature.referenceRGB)
        let denominator = xyz.x + 15 * xyz.y + 3 * xyz.z
        guard denominator > 1e-12, xyz.y > 0 else { return nil }
        let uv = SIMD2(4 * xyz.x / denominator, 6 * xyz.y / denominator)
        func distance(_ mired: Double) -> Double {
            let d = uv - ColorTemperature.locus(1e6 / mired)
            return (d * d).sum()
        }
        // Search in mireds (even steps in perceived colour): a 1-mired scan, then golden-section.
        let lowest = 1e6 / ColorTemperature.range.upperBound, highest = 1e6 / ColorTemperature.range.lowerBound
        var best = lowest, bestDistance = distance(lowest)
        var mired = lowest
        while mired <= highest {
            let value = distance(mired)
            if value < bestDistance { (best, bestDistance) = (mired, value) }
            mired += 1
        }
        var a = max(best - 1, lowest), b = min(best + 1, highest)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let c = b - ratio * (b - a), d = a + ratio * (b - a)
            if distance(c) < distance(d) { b = d } else { a = c }
        }
        let kelvin = 1e6 / ((a + b) / 2)
        let offset = uv - ColorTemperature.locus(kelvin)
        self.init(kelvin, tint: (offset * ColorTemperature.locusNormal(kelvin)).sum() * 1000)
    }

    /// Rec. 709 luminance of linear RGB.
    public static func luminance(_ rgb: SIMD3<Double>) -> Double {
        0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
    }

    /// Linear Rec. 709 RGB (Y = 1) of CIE 1960 (u, v).
    private static func absoluteRGB(uv: SIMD2<Double>) -> SIMD3<Double> {
        let denominator = 2 * uv.x - 8 * uv.y + 4
        let x = 3 * uv.x / denominator, y = 2 * uv.y / denominator
        let xyz = SIMD3(x / y, 1, (1 - x - y) / y)
        return SIMD3(
            3.240_454_2 * xyz.x - 1.537_138_5 * xyz.y - 0.498_531_4 * xyz.z,
            -0.969_266_0 * xyz.x + 1.876_010_8 * xyz.y + 0.041_556_0 * xyz.z,
            0.055_643_4 * xyz.x - 0.204_025_9 * xyz.y + 1.057_225_2 * xyz.z)
    }

    /// CIE XYZ of linear Rec. 709 RGB.
    private static func xyzFromRGB(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            0.412_456_4 * rgb.x + 0.357_576_1 * rgb.y + 0.180_437_5 * rgb.z,
            0.212_672_9 * rgb.x + 0.715_152_2 * rgb.y + 0.072_175_0 * rgb.z,
            0.019_333_9 * rgb.x + 0.119_192_0 * rgb.y + 0.950_304_1 * rgb.z)
    }

    private static let referenceRGB = absoluteRGB(uv: locus(reference.kelvin))
}
