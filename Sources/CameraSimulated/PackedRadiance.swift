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
        pixels = [UInt32](repeating: 0, count: stride * image.height)
        repack(image, rows: 0..<image.height)
    }

    /// Packs `rows` of `image` again (the same size as the packed one), after a change to them.
    mutating func repack(_ image: RadianceImage, rows: Range<Int>) {
        precondition(image.width == width && image.height == height, "repacking a \(image.width)x\(image.height) image into \(width)x\(height)")
        let (width, stride) = (width, stride)
        image.samples.withUnsafeBufferPointer { samples in
            pixels.withUnsafeMutableBufferPointer { pixels in
                for y in rows {
                    for x in 0..<width {
                        let i = (y * width + x) * 3
                        pixels[y * stride + x] = PackedRadiance.pack(SIMD3(samples[i], samples[i + 1], samples[i + 2]))
                    }
                }
            }
        }
    }

    /// RGBE encoding of one pixel: bytes r, g, b (rounded, so decoding needs no offset),
    /// exponent (0 = black).
    static func pack(_ rgb: SIMD3<Float>) -> UInt32 {
        let brightest = max(rgb.x, rgb.y, rgb.z)
        guard brightest > 1e-30 else { return 0 }
        // brightest = m·2^(e + 1), m in [0.5, 1), e its float exponent; the exponent byte is e + 129.
        let biased = brightest.bitPattern >> 23 & 0xFF
        // 2^(7 − e) takes the brightest channel to 128…256. Rounded half up by adding ½ and
        // truncating: the standard library's SIMD conversion and rounding are generic calls per
        // lane, and `rounded()` is a libm call without SSE4.1.
        let scale = Float(bitPattern: (261 - biased) << 23)
        func byte(_ channel: Float) -> UInt32 { min(UInt32(max(channel * scale + 0.5, 0)), 255) }
        return byte(rgb.x) | byte(rgb.y) << 8 | byte(rgb.z) << 16 | (biased + 2) << 24
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
