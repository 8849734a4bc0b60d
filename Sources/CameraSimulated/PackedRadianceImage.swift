import CameraCore

/// An HDR image kept as Radiance RGBE words, 4 bytes a pixel instead of a `RadianceImage`'s 12,
/// times a `scale` applied as it is read: a 100 Mpixel panorama takes 400 MB, not 1.2 GB.
///
/// Channels are clamped to `ceiling` before scaling, as `RadianceImage.sanitize()` does to a
/// decoded image (a word may stand for up to 1.7e38).
struct PackedRadianceImage: RadianceSampling {
    let width: Int
    let height: Int
    /// Red in bits 0…7, green 8…15, blue 16…23, exponent E in 24…31: mantissa × 2^(E − 136).
    let pixels: [UInt32]
    /// The factor every radiance is multiplied by.
    var scale: Float = 1
    /// The largest radiance a channel has before scaling.
    static let ceiling: Float = 1e9

    init(width: Int, height: Int, pixels: consuming [UInt32]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height,
                     "a packed radiance image of \(width)x\(height) needs \(width * height) words, not \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The RGB radiance at pixel (`x`, `y`).
    subscript(x: Int, y: Int) -> SIMD3<Float> {
        let word = pixels[y * width + x]
        let exponent = Int(word >> 24)
        guard exponent != 0 else { return .zero }
        let unit = Float(sign: .plus, exponent: exponent - 136, significand: 1)
        let rgb = SIMD3<Float>(Float(word & 0xFF), Float((word >> 8) & 0xFF), Float((word >> 16) & 0xFF)) * unit
        return rgb.replacing(with: Self.ceiling, where: rgb .> Self.ceiling) * scale
    }
}
