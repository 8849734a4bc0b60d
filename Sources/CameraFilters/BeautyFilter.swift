import CameraCore
import Foundation

/// The reference articles' skin-smoothing "beauty" filter, edge-aware: a self-guided filter (He,
/// Sun & Tang 2010) on luma, applied where the colour is skin.
///
/// The guided filter fits luma in each window as a·I + b with a = σ²/(σ² + ε): on noise and
/// pores (σ² ≪ ε) a → 0 and the window's mean wins; across an edge (σ² ≫ ε) a → 1 and the edge
/// stays. The smoothed luma replaces the original by `strength` times the pixel's skin weight
/// (an ellipse in Cb/Cr around skin tones, soft at its rim): in bgra8 the change goes into all
/// three channels alike, in nv12 into the luma plane, so hue is kept either way; sky, foliage
/// and clothes are left alone. Strength 0 returns at once.
///
/// A frame costs one pass that sums its blocks (`GuidedFilterPlanes`), the fits on the blocks,
/// and per-pixel work only in runs of blocks whose mean colour is near skin (widened by a block):
/// a 1080p portrait takes 7–10 ms on one core (BENCHMARKS.md).
public final class BeautyFilter: FrameFilter {
    /// The strengths a beauty filter allows.
    public static let strengths = 0.0...1.0

    public let strength: Double
    /// ε, in luma units of 0…1: the local variance below which detail counts as texture to smooth.
    public static let epsilon: Float = 0.02 * 0.02

    /// The guided filter's window radius for a frame `height` pixels high: 0.007 of the height,
    /// at least 3 pixels.
    public static func radius(height: Int) -> Int {
        max(Int((Double(height) * 0.007).rounded()), 3)
    }

    /// The luma and guided-filter planes, kept between frames of one size.
    private let scratch = Locked(GuidedFilterPlanes())

    /// A filter of `strength` 0…1; throws for anything else.
    public init(strength: Double) throws(FilterError) {
        guard strength.isFinite, BeautyFilter.strengths.contains(strength) else {
            throw FilterError("a beauty strength of \(strength) is outside 0…1 — choose 0 (off) to 1 (strongest)")
        }
        self.strength = strength
    }

    /// bgra8 and nv12 (either range).
    public func check(_ format: PixelFormat) throws(FilterError) {
        try FilterError.checkBGRAOrNV12(format, filter: "the beauty filter")
    }

    public func apply(to buffer: PixelBuffer, at _: Date) throws(FilterError) {
        try check(buffer.format)
        let range: YCbCrRange? = if case .nv12(let range) = buffer.format { range } else { nil }
        guard strength > 0 else { return }
        let radius = BeautyFilter.radius(height: buffer.height)
        scratch.withLock { planes in
            if let range {
                smooth(NV12Skin(buffer, range: range), width: buffer.width, height: buffer.height, radius: radius, planes: planes)
            } else {
                smooth(BGRASkin(buffer), width: buffer.width, height: buffer.height, radius: radius, planes: planes)
            }
        }
    }

    /// The frame's blocks filled by `pixels`, the fits found on them, and the pixels of each run
    /// of (widened) skin blocks smoothed, row by row.
    private func smooth(_ pixels: some SkinPasses, width: Int, height: Int, radius: Int, planes: GuidedFilterPlanes) {
        planes.resize(width: width, height: height, scale: GuidedFilterPlanes.scale(radius: radius))
        pixels.fillBlocks(planes)
        planes.fit(radius: radius, epsilon: BeautyFilter.epsilon)
        planes.widenSkinBlocks()
        let amount = Float(strength), scale = planes.scale
        for lowY in 0..<planes.lowHeight {
            for columns in planes.skinRuns(blockRow: lowY) {
                for y in lowY * scale..<min((lowY + 1) * scale, height) {
                    pixels.smooth(row: y, columns: columns, fits: planes.fits(row: y, columns: columns), amount: amount)
                }
            }
        }
    }

    /// The largest `skinDistance` of a block's mean colour at which the block is looked at pixel
    /// by pixel: 1.5 times as far from skin as the weight's own reach (1.96, squared), so a block
    /// whose mean is darkened or tinted by a few non-skin pixels is not skipped.
    static let blockReach: Float = 1.96 * 1.5 * 1.5

    /// How much a colour looks like skin, 0…1: 1 inside an ellipse around skin tones in BT.601
    /// Cb/Cr (centre 102, 153; semi-axes 30 and 25), falling to 0 at 1.4 times its size.
    @inline(__always)
    static func skinWeight(red: Float, green: Float, blue: Float) -> Float {
        min(max(skinRamp(red: red, green: green, blue: blue), 0), 1)
    }

    /// `skinWeight` before it is clamped to 0…1, of one colour or of eight at once (`FloatLanes`).
    @inline(__always)
    static func skinRamp<V: FloatLanes>(red: V, green: V, blue: V) -> V {
        (1.96 - skinDistance(red: red, green: green, blue: blue)) * (1 / 0.96 as Float)
    }

    /// The squared distance of a colour from the skin ellipse's centre, in semi-axes: 1 on its rim.
    @inline(__always)
    static func skinDistance<V: FloatLanes>(red: V, green: V, blue: V) -> V {
        let cb = 128 - 0.168_736 * red - 0.331_264 * green + 0.5 * blue
        let cr = 128 + 0.5 * red - 0.418_688 * green - 0.081_312 * blue
        // Multiplications by reciprocals: a float division by a constant stays a division.
        let u = (cb - 102) * (1 / 30 as Float), v = (cr - 153) * (1 / 25 as Float)
        return u * u + v * v
    }

    /// The nearest byte to `value`, clamped to 0…255.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value + 0.5, 0), 255))
    }
}

/// A float or a vector of floats: the arithmetic the skin and luma formulas use, so that one
/// formula serves a pixel and eight pixels at once (specialized, as the callers are inlined).
protocol FloatLanes {
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func + (lhs: Float, rhs: Self) -> Self
    static func - (lhs: Float, rhs: Self) -> Self
    static func * (lhs: Float, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Float) -> Self
    static func * (lhs: Self, rhs: Float) -> Self
}

extension Float: FloatLanes {}
extension SIMD8: FloatLanes where Scalar == Float {}
