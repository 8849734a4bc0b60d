import CameraCore

/// A radiance image packed as Ward's RGBE: three 8-bit mantissas sharing an 8-bit exponent, four
/// bytes a pixel instead of twelve, so the sensor streams a third of the memory each frame.
///
/// Precision is about 1% of each pixel's brightest channel — far below the sensor's noise. Rows
/// are padded with black to a multiple of 8 pixels plus 8, so readers can load 8 pixels at a time.
struct PackedRadiance {
    let width: Int
    let height: Int
    let stride: Int
    private(set) var pixels: [UInt32]

    init(_ image: RadianceImage) {
        width = image.width
        height = image.height
        stride = (image.width + 7) / 8 * 8 + 8
        var pixels = [UInt32](repeating: 0, count: stride * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                pixels[y * stride + x] = PackedRadiance.pack(image[x, y])
            }
        }
        self.pixels = pixels
    }

    /// Packs `rows` of `image` again (the same size as the packed one), after a change to them.
    mutating func repack(_ image: RadianceImage, rows: Range<Int>) {
        precondition(image.width == width && image.height == height, "repacking a \(image.width)x\(image.height) image into \(width)x\(height)")
        for y in rows {
            for x in 0..<width { pixels[y * stride + x] = PackedRadiance.pack(image[x, y]) }
        }
    }

    /// RGBE encoding of one pixel: bytes r, g, b (rounded, so decoding needs no offset),
    /// exponent (0 = black).
    static func pack(_ rgb: SIMD3<Float>) -> UInt32 {
        let brightest = max(rgb.x, rgb.y, rgb.z)
        guard brightest > 1e-30 else { return 0 }
        let exponent = brightest.exponent + 1                      // brightest = m·2^exponent, m in [0.5, 1)
        let scale = Float(sign: .plus, exponent: 8 - exponent, significand: 1)
        let bytes = SIMD3<UInt32>((rgb * scale).rounded(.toNearestOrAwayFromZero).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)))
        return bytes.x | bytes.y << 8 | bytes.z << 16 | UInt32(exponent + 128) << 24
    }

    /// The radiance of one mantissa unit of eight packed pixels: 2^(exponent − 136), built from
    /// its bits. For black (all zero) the value is a finite nonsense number that multiplies zero
    /// mantissas — cheaper than a lane select, which Swift compiles to a per-lane loop here.
    @inline(__always)
    static func unitScale(_ packed: SIMD8<UInt32>) -> SIMD8<Float> {
        unsafeBitCast(((packed &>> 24) &- 9) &<< 23, to: SIMD8<Float>.self)
    }

    /// The mantissas of channel 0 (red), 1 (green) or 2 (blue) of eight packed pixels.
    @inline(__always)
    static func mantissa(_ packed: SIMD8<UInt32>, channel: Int) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (packed &>> UInt32(channel * 8)) & 0xFF))
    }
}

/// What an HDR scene samples its view from: a decoded image as floats, or packed as RGBE.
protocol RadianceSource: Sendable {
    var width: Int { get }
    var height: Int { get }
    func luminance(x: Int, y: Int) -> Float
    func bilinear(x: Double, y: Double, wrapsHorizontally: Bool) -> SIMD3<Float>
}

extension RadianceImage: RadianceSource {}

/// An HDR image kept as Radiance RGBE words, 4 bytes a pixel instead of a `RadianceImage`'s 12,
/// times a `scale` applied as it is read: a 100 Mpixel panorama takes 400 MB, not 1.2 GB.
///
/// Channels are clamped to `ceiling` before scaling, as `RadianceImage.sanitize()` does to a
/// decoded image (a word may stand for up to 1.7e38).
struct PackedRadianceImage: RadianceSource {
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

    /// Rec. 709 luminance of pixel (`x`, `y`).
    func luminance(x: Int, y: Int) -> Float {
        let rgb = self[x, y]
        return 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
    }

    /// The bilinear interpolation at pixel coordinates (`x`, `y`), as `RadianceImage.bilinear`.
    func bilinear(x: Double, y: Double, wrapsHorizontally: Bool) -> SIMD3<Float> {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
        func column(_ x: Int) -> Int {
            wrapsHorizontally ? ((x % width) + width) % width : min(max(x, 0), width - 1)
        }
        func row(_ y: Int) -> Int { min(max(y, 0), height - 1) }
        let top = self[column(x0), row(y0)] * (1 - fx) + self[column(x0 + 1), row(y0)] * fx
        let bottom = self[column(x0), row(y0 + 1)] * (1 - fx) + self[column(x0 + 1), row(y0 + 1)] * fx
        return top * (1 - fy) + bottom * fy
    }
}
