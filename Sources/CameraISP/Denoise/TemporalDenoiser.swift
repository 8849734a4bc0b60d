/// Averages a stream's frames over time where nothing moved: each pixel of the (spatially
/// denoised) frame is blended with the pipeline's previous output, `out = prev + k·(frame − prev)`,
/// where `k` is `stillWeight` while the two differ by no more than `motionStart` noise deviations
/// and rises to 1 (the frame alone) by `motionEnd`, so what moved, and where the exposure
/// changed, leaves no trail.
///
/// The difference is the three channels' RMS, against the noise of the frame's luma at that level: a still pixel averages about (2 − k)/k frames (7 for k = ¼, noise
/// σ × 0.38), while a moving edge many deviations away is the new frame's at once.
struct TemporalDenoiser {
    /// The new frame's weight where the two agree.
    static let stillWeight: Float = 0.25
    /// Noise deviations of difference below which a pixel counts as still…
    static let motionStart: Float = 3
    /// …and from which it counts as moved.
    static let motionEnd: Float = 6

    /// Whether the pipeline's previous output is a frame of this stream to blend with.
    private(set) var hasPrevious = false

    /// Forgets the previous output: the next frame starts the average afresh.
    mutating func reset() {
        hasPrevious = false
    }

    /// Blends `image` in place with `previous`, the output before it, whose noise is `noise`.
    mutating func apply(_ image: inout LinearImage, previous: LinearImage, noise: DevelopedNoise) {
        defer { hasPrevious = true }
        guard hasPrevious, previous.width == image.width, previous.height == image.height else { return }
        let height = image.height
        previous.withPlanes { old in
            image.withMutablePlanes { new in
                for y in 0..<height {
                    Self.blendRow(new, old, at: y * new.stride, count: new.stride, noise: noise)
                }
            }
        }
    }

    /// One row blended, eight pixels at a time.
    @inline(never)
    private static func blendRow(_ new: LinearImage.MutablePlanes, _ old: LinearImage.Planes, at offset: Int, count: Int,
                                 noise: DevelopedNoise) {
        let weights = DevelopedNoise.luma
        let rampScale = 1 / (motionEnd - motionStart), motion = 1 - stillWeight
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let i = offset &+ x
            let r = Lanes.load(new.red + i), g = Lanes.load(new.green + i), b = Lanes.load(new.blue + i)
            let before = old.load(i)
            let dr = r - before.red, dg = g - before.green, db = b - before.blue
            let meanSquare = (dr * dr + dg * dg + db * db) * (1.0 / 3)
            let variance = noise.variance(r * weights.x + g * weights.y + b * weights.z)
            let deviations = (meanSquare / variance).squareRoot()
            let moved = FastMath.minimum(FastMath.nonNegative((deviations - motionStart) * rampScale), 1)
            let k = stillWeight + motion * moved
            Lanes.store(before.red + k * dr, new.red + i)
            Lanes.store(before.green + k * dg, new.green + i)
            Lanes.store(before.blue + k * db, new.blue + i)
        }
    }
}
