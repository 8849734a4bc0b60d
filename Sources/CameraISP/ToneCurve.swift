import CameraCore
import Foundation

/// The tone curve a `RenderGain` asks for, in log2 of linear luminance: f(b) is the output level
/// of input level b.
///
/// With s = log2(subject level), w = log2(the developed frame's clip level), D = w − s,
/// x = b − s and γ the gain's contrast:
///
///     f(b) = b + ev + (γ − 1)·x                       for b ≤ s (the subject at its gain, the shadows at slope γ)
///     f(b) = s + ev + k·x + (γ − k)·x / (1 + x/κ)     for b > s
///
/// Above the subject the slope falls from γ to a constant k over a knee about κ EV wide, and k is
/// chosen so that the input white lands on the output white, f(w) = w − log2(headroom) + v (v = 0,
/// or log2 of the gain's `white` below 1 for a dim scene; w − log2(headroom) = 0 for a sensor's frame; a merged bracket's light above the sensor's white, up to `headroom` times it,
/// is brought under the same white): the highlights keep an even
/// share of the output range (a slope falling towards 0, as a rational curve has, squeezed the top
/// half stop of the sensor into a tenth of a stop, which clipped). A pixel's detail — its level
/// over its base — keeps its whole contrast where the output has `detailRange` of room under
/// white, and falls towards the curve's slope at the base, f′(b), as the room closes, so that a
/// textured sky near white does not clip where the curve alone keeps it: with γ < 1 the local
/// tone mapping keeps the texture the global curve flattens. When ev ≤ 0 nothing needs
/// compressing and f(b) = b + ev; `RenderGain.none` is the identity.
struct ToneCurve {
    /// s, log2 of the subject's linear level.
    let subject: Float
    let ev: Float
    /// γ, the slope at and below the subject.
    let contrast: Float
    /// v, log2 of the output level the input white lands on (0, or below for a dim scene).
    let white: Float
    /// The slope above the knee; 1 when the curve is a plain gain.
    let slope: Float
    /// Whether the curve compresses (and the output rolls off into white).
    let compresses: Bool

    /// Added to luminance (never negative) before the log: 2⁻²⁰ is 7 EV below the first 8-bit
    /// sRGB step, so it stays black after any plausible lift, and keeps log2 finite.
    static let smallestLuminance: Float = 0x1p-20
    /// The knee's width in EV: a stop over which the subject's neighbourhood keeps its contrast.
    static let knee: Float = 1
    /// EV of detail over its base the output keeps whole below white: room for a texture this
    /// strong before its contrast is compressed towards the curve's slope. Half a stop raises TMQI
    /// on every view list without clipping more; a quarter doubled the backlit scenes' clipping.
    static let detailRange: Float = 0.5
    /// The least slope the highlights keep, however much the subject is lifted.
    static let minimumSlope: Float = 0.05

    /// The largest lift or cut: far past any exposure the camera makes, and it keeps the
    /// per-pixel exp2 inside its range.
    static let evLimit = 24.0

    init(_ gain: RenderGain, clipLevel: Float, headroom: Float = 1) {
        let subject = Float(log2(max(gain.subjectLevel, Double(ToneCurve.smallestLuminance))))
        let range = log2(clipLevel) - subject
        self.subject = subject
        ev = Float(min(max(gain.ev, -ToneCurve.evLimit), ToneCurve.evLimit))
        let white = Float(log2(min(max(gain.white, 1.0 / 64), 1)))
        self.white = white
        guard ev > 0 || headroom > 1 || white < 0, range > 0 else {
            (contrast, slope, compresses) = (1, 1, false)
            return
        }
        let contrast = Float(min(max(gain.contrast, Double(ToneCurve.minimumSlope)), 1))
        // The EV from the subject's output level to the output white.
        let room = range - log2(headroom) + white - ev
        let q = 1 / (1 + range / ToneCurve.knee)
        let k = (room - contrast * range * q) / (range - range * q)
        self.contrast = contrast
        slope = min(max(k, ToneCurve.minimumSlope), contrast)
        compresses = slope < 1
    }

    /// Whether the curve leaves every level where it is (no gain, no compression).
    var isIdentity: Bool { ev == 0 && !compresses }

    /// f(b) − b for eight base levels: the log2 of the gain a pixel on that base gets.
    @inline(__always)
    func log2Gain(_ base: SIMD8<Float>) -> SIMD8<Float> {
        log2Gain(at: base - subject).gain
    }

    /// The log2 gain of eight pixels of log luminance `level` on base levels `base`: the curve's at
    /// the base, with the detail (level − base) kept whole where there is room under white, else at
    /// no less than the curve's slope there.
    @inline(__always)
    func log2Gain(level: SIMD8<Float>, base: SIMD8<Float>) -> SIMD8<Float> {
        let (gain, reciprocal) = log2Gain(at: base - subject)
        guard compresses else { return gain }
        // f′(b) = k + (γ − k)·r², r = 1 / (1 + x/κ) above the subject and 1 at and below it.
        let derivative = reciprocal * reciprocal * (contrast - slope) + slope
        // Detail keeps its whole contrast where the output has room for it under white.
        let room = FastMath.nonNegative(white - (base + gain)) * (1 / ToneCurve.detailRange)
        let detailSlope = FastMath.minimum(derivative + FastMath.nonNegative(room - derivative), 1)
        return (detailSlope - 1) * (level - base) + gain
    }

    /// f(b) − b at x = b − s, with r = 1 / (1 + max(x, 0)/κ), which the slope at b shares:
    /// f(b) − b = ev + (γ − 1)·min(x, 0) + (k − 1)·max(x, 0) + (γ − k)·max(x, 0)·r.
    @inline(__always)
    private func log2Gain(at x: SIMD8<Float>) -> (gain: SIMD8<Float>, reciprocal: SIMD8<Float>) {
        let above = FastMath.nonNegative(x), below = x - above
        let reciprocal = 1 / (above * (1 / ToneCurve.knee) + 1)
        let gain = below * (contrast - 1) + above * (slope - 1) + ev
        return (above * reciprocal * (contrast - slope) + gain, reciprocal)
    }

    /// f(b) for one level, for tests and callers off the per-pixel path.
    func output(_ level: Float) -> Float {
        level + log2Gain(SIMD8(repeating: level))[0]
    }
}
