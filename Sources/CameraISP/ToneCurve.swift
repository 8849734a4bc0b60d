import CameraCore
import Foundation

/// The tone curve a `RenderGain` asks for, in log2 of linear luminance: f(b) is the output level
/// of input level b.
///
/// With s = log2(subject level), w = log2(the developed frame's clip level) and x = b − s:
///
///     f(b) = b + ev                      for b ≤ s (shadows and the subject get the full gain)
///     f(b) = s + ev + x / (1 + x / c)    for b > s
///
/// The rational part has slope 1 at the subject (so the curve is smooth there), a slope
/// 1 / (1 + x/c)² that falls monotonically above it, and c chosen so that the input white lands
/// on the output white: f(w) = 0, i.e. c = D·(D − ev) / ev with D = w − s. It needs one division
/// per pixel and nothing else, and its asymptote keeps detail above the white rising slowly until
/// the encoder clips it. When ev ≤ 0 (nothing needs compressing) or the lifted subject would reach
/// white itself (ev ≥ D, no monotone curve can fit), f(b) = b + ev everywhere; `RenderGain.none`
/// is the identity.
struct ToneCurve {
    /// s, log2 of the subject's linear level.
    let subject: Float
    let ev: Float
    /// 1/c, 0 when the curve is a plain gain.
    let inverseShoulder: Float

    /// Added to luminance (never negative) before the log: 2⁻²⁰ is 7 EV below the first 8-bit
    /// sRGB step, so it stays black after any plausible lift, and keeps log2 finite.
    static let smallestLuminance: Float = 0x1p-20

    /// The largest lift or cut: far past any exposure the camera makes, and it keeps the
    /// per-pixel exp2 inside its range.
    static let evLimit = 24.0

    init(_ gain: RenderGain, clipLevel: Float) {
        let subject = log2(max(gain.subjectLevel, Double(ToneCurve.smallestLuminance)))
        let headroom = log2(Double(clipLevel)) - subject
        self.subject = Float(subject)
        ev = Float(min(max(gain.ev, -ToneCurve.evLimit), ToneCurve.evLimit))
        let ev = Double(self.ev)
        inverseShoulder = ev > 0 && ev < headroom ? Float(ev / (headroom * (headroom - ev))) : 0
    }

    /// Whether the curve leaves every level where it is (no gain, no compression).
    var isIdentity: Bool { ev == 0 && inverseShoulder == 0 }

    /// f(b) − b for eight base levels: ev − x²/c / (1 + x/c) with x = max(b − s, 0), the log2 of
    /// the gain a pixel on that base gets.
    @inline(__always)
    func log2Gain(_ base: SIMD8<Float>) -> SIMD8<Float> {
        let x = FastMath.nonNegative(base - subject)
        let scaled = x * inverseShoulder
        return ev - x * scaled / (1 + scaled)
    }

    /// f(b) for one level, for tests and callers off the per-pixel path.
    func output(_ level: Float) -> Float {
        level + log2Gain(SIMD8(repeating: level))[0]
    }
}
