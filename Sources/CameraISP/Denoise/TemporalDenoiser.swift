import CameraCore

/// Averages a stream's frames over time where nothing moved: each pixel of the (spatially
/// denoised) frame is blended with the pipeline's previous output, `out = prev + k·(frame − prev)`,
/// where `k` is `stillWeight` while the two differ by no more than `motionStart` noise deviations
/// and rises to 1 (the frame alone) by `motionEnd`, so what moved leaves no trail. The previous
/// output is first brought to this frame's exposure: while auto-exposure moves the sensor,
/// blending the old exposure in would show the metering a lagging level and set the loop swinging.
/// A pixel clipped in the new frame is kept as it is: scaled, the old one would unclip it, and the
/// metering would take a clipped lamp for a surface a little under white.
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

    /// The exposure of the previous output, per channel, when there is one to blend with.
    private(set) var previousExposure: SIMD3<Float>?

    /// Forgets the previous output: the next frame starts the average afresh.
    mutating func reset() {
        previousExposure = nil
    }

    /// Blends `image`, developed at `exposure` (per channel: the developed level of a unit
    /// radiance), in place with `previous`, the output before it, whose noise is `noise`; in
    /// stripes of rows on `stripes`.
    mutating func apply(_ image: inout LinearImage, exposure: SIMD3<Float>, previous: LinearImage, noise: DevelopedNoise,
                        stripes: StripePool) {
        defer { previousExposure = exposure }
        guard let previousExposure, previous.width == image.width, previous.height == image.height else { return }
        let scale = exposure / previousExposure
        let (height, clip) = (image.height, image.clipLevel)
        previous.withPlanes { old in
            image.withMutablePlanes { new in
                stripes.run(rows: height) { _, rows in
                    for y in rows {
                        Self.blendRow(new, old, at: y * new.stride, count: new.stride, scale: scale, clip: clip, noise: noise)
                    }
                }
            }
        }
    }

    /// The developed level of a unit radiance in each channel of `frame`, up to a constant: its
    /// total exposure, times the white balance a raw frame is developed with.
    static func exposure(of frame: Frame) -> SIMD3<Float> {
        let metadata = frame.metadata
        guard case .bayer16 = frame.buffer.format else { return SIMD3(repeating: Float(metadata.totalExposure)) }
        let gains = metadata.whiteBalanceGains
        return Float(metadata.totalExposure) * SIMD3(Float(gains.red), Float(gains.green), Float(gains.blue))
    }

    /// One row blended, eight pixels at a time.
    @inline(never)
    private static func blendRow(_ new: LinearImage.MutablePlanes, _ old: LinearImage.Planes, at offset: Int, count: Int,
                                 scale: SIMD3<Float>, clip: Float, noise: DevelopedNoise) {
        let weights = DevelopedNoise.luma
        let rampScale = 1 / (motionEnd - motionStart), motion = 1 - stillWeight
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let i = offset &+ x
            let r = Lanes.load(new.red + i), g = Lanes.load(new.green + i), b = Lanes.load(new.blue + i)
            let loaded = old.load(i)
            // Brought to this frame's exposure, and no brighter than it can read.
            let before = (red: FastMath.minimum(loaded.red * scale.x, clip), green: FastMath.minimum(loaded.green * scale.y, clip),
                          blue: FastMath.minimum(loaded.blue * scale.z, clip))
            let dr = r - before.red, dg = g - before.green, db = b - before.blue
            let meanSquare = (dr * dr + dg * dg + db * db) * (1.0 / 3)
            let variance = noise.variance(r * weights.x + g * weights.y + b * weights.z)
            let deviations = DenoiserMath.squareRoot(meanSquare / variance)
            let moved = FastMath.minimum(FastMath.nonNegative((deviations - motionStart) * rampScale), 1)
            let clipped = DenoiserMath.atLeast(r, clip) | DenoiserMath.atLeast(g, clip) | DenoiserMath.atLeast(b, clip)
            let k = DenoiserMath.replacing(stillWeight + motion * moved, with: 1, where: clipped)
            Lanes.store(before.red + k * dr, new.red + i)
            Lanes.store(before.green + k * dg, new.green + i)
            Lanes.store(before.blue + k * db, new.blue + i)
        }
    }
}
