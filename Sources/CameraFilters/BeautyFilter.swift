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
public final class BeautyFilter: FrameFilter {
    /// The strengths a beauty filter allows.
    public static let strengths = 0.0...1.0

    public let strength: Double
    /// The window radius as a fraction of the frame height (at least 3 pixels).
    private static let radiusPerHeight = 0.007
    /// ε, in luma units of 0…1: the local variance below which detail counts as texture to smooth.
    private static let epsilon: Float = 0.02 * 0.02
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
        let radius = max(Int((Double(buffer.height) * BeautyFilter.radiusPerHeight).rounded()), 3)
        scratch.withLock { planes in
            if let range {
                smoothNV12(buffer, range: range, radius: radius, planes: planes)
            } else {
                smoothBGRA(buffer, radius: radius, planes: planes)
            }
        }
    }

    /// bgra8: luma from R'G'B' (BT.601 weights), the change added to all three channels.
    private func smoothBGRA(_ buffer: PixelBuffer, radius: Int, planes: GuidedFilterPlanes) {
        let width = buffer.width, bytesPerRow = buffer.planes[0].bytesPerRow, amount = Float(strength)
        let pixels = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        let luma = planes.resize(width: width, height: buffer.height)
        for y in 0..<buffer.height {
            let row = pixels + y * bytesPerRow
            for x in 0..<width {
                let pixel = row + 4 * x
                luma[y * width + x] = (0.114 * Float(pixel[0]) + 0.587 * Float(pixel[1]) + 0.299 * Float(pixel[2])) * (1 / 255 as Float)
            }
        }
        let smoothed = planes.smoothLuma(radius: radius, epsilon: BeautyFilter.epsilon)
        for y in 0..<buffer.height {
            let row = pixels + y * bytesPerRow
            for x in 0..<width {
                let pixel = row + 4 * x
                let blue = Float(pixel[0]), green = Float(pixel[1]), red = Float(pixel[2])
                let weight = amount * BeautyFilter.skinWeight(red: red, green: green, blue: blue)
                guard weight > 0 else { continue }
                let index = y * width + x
                let shift = weight * 255 * (smoothed[index] - luma[index])
                pixel[0] = BeautyFilter.byte(blue + shift)
                pixel[1] = BeautyFilter.byte(green + shift)
                pixel[2] = BeautyFilter.byte(red + shift)
            }
        }
    }

    /// nv12: the luma plane smoothed in place (scaled from the range's black…white to 0…1), the
    /// skin weight from each pixel's colour; chroma is left as it is, as the bgra8 path keeps it.
    private func smoothNV12(_ buffer: PixelBuffer, range: YCbCrRange, radius: Int, planes: GuidedFilterPlanes) {
        let (black, scale): (Float, Float) = range == .video ? (16, 219) : (0, 255)
        let width = buffer.width, amount = Float(strength), inverseScale = 1 / scale
        let luma = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self), lumaStride = buffer.planes[0].bytesPerRow
        let chroma = buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self), chromaStride = buffer.planes[1].bytesPerRow
        let normalized = planes.resize(width: width, height: buffer.height)
        for y in 0..<buffer.height {
            let row = luma + y * lumaStride
            for x in 0..<width {
                normalized[y * width + x] = (Float(row[x]) - black) * inverseScale
            }
        }
        let smoothed = planes.smoothLuma(radius: radius, epsilon: BeautyFilter.epsilon)
        for y in 0..<buffer.height {
            let row = luma + y * lumaStride, pairs = chroma + y / 2 * chromaStride
            for x in 0..<width {
                let colour = BT709.decode(y: row[x], cb: pairs[x & ~1], cr: pairs[x | 1], range: range)
                let weight = amount * BeautyFilter.skinWeight(red: Float(colour.red), green: Float(colour.green), blue: Float(colour.blue))
                guard weight > 0 else { continue }
                let index = y * width + x
                row[x] = BeautyFilter.byte(Float(row[x]) + weight * scale * (smoothed[index] - normalized[index]))
            }
        }
    }

    /// How much a colour looks like skin, 0…1: 1 inside an ellipse around skin tones in BT.601
    /// Cb/Cr (centre 102, 153; semi-axes 30 and 25), falling to 0 at 1.4 times its size.
    static func skinWeight(red: Float, green: Float, blue: Float) -> Float {
        let cb = 128 - 0.168_736 * red - 0.331_264 * green + 0.5 * blue
        let cr = 128 + 0.5 * red - 0.418_688 * green - 0.081_312 * blue
        // Multiplications by reciprocals: a float division by a constant stays a division.
        let u = (cb - 102) * (1 / 30 as Float), v = (cr - 153) * (1 / 25 as Float)
        let distance = u * u + v * v
        return min(max((1.96 - distance) * (1 / 0.96 as Float), 0), 1)
    }

    /// The nearest byte to `value`, clamped to 0…255.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value + 0.5, 0), 255))
    }
}
