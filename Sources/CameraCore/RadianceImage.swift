/// A linear-light, scene-referred RGB image: three `Float`s per pixel, row-major, interleaved.
///
/// Values are luminance-like radiances (the simulated camera uses cd/m²): unbounded above, and
/// never negative, NaN or infinite once sanitised.
public struct RadianceImage: RadianceSampling {
    public let width: Int
    public let height: Int
    /// `width × height × 3` values: r, g, b of (0, 0), then (1, 0), …
    public var samples: [Float]

    /// A black image.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a radiance image needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        samples = [Float](repeating: 0, count: width * height * 3)
    }

    /// An image made of `samples` (count must be `width × height × 3`).
    public init(width: Int, height: Int, samples: [Float]) {
        precondition(samples.count == width * height * 3, "expected \(width * height * 3) samples, got \(samples.count)")
        self.width = width
        self.height = height
        self.samples = samples
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The RGB radiance at pixel (`x`, `y`).
    public subscript(x: Int, y: Int) -> SIMD3<Float> {
        get {
            let i = (y * width + x) * 3
            return SIMD3(samples[i], samples[i + 1], samples[i + 2])
        }
        set {
            let i = (y * width + x) * 3
            samples[i] = newValue.x
            samples[i + 1] = newValue.y
            samples[i + 2] = newValue.z
        }
    }

    /// Multiplies every sample by `factor`, in place.
    public mutating func scale(by factor: Float) {
        samples.withUnsafeMutableBufferPointer { samples in
            for i in samples.indices { samples[i] *= factor }
        }
    }

    /// Replaces NaN and negative values with 0, and infinities and values above `ceiling` with
    /// `ceiling`, as real HDR files
    /// carry such samples in and around the sun. Returns how many samples were replaced.
    @discardableResult
    public mutating func sanitize(ceiling: Float = 1e9) -> Int {
        var replaced = 0
        for i in samples.indices {
            let value = samples[i]
            if value.isNaN || value < 0 {
                samples[i] = 0
                replaced += 1
            } else if value > ceiling {
                samples[i] = ceiling
                replaced += 1
            }
        }
        return replaced
    }
}
