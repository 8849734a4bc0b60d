import CameraCore

/// Linear RGB of single pixels of a buffer in any colour format, read in place.
struct ColorSampler {
    private let buffer: PixelBuffer
    /// The 8-bit formats' pixels (nil for bayer16, read here by 2×2 quads).
    private let reader: (any PixelReader)?
    private let planes: [UnsafeRawPointer]
    private let strides: [Int]
    /// A bayer16 sample's black level and the span to its white level.
    private let black: Double, span: Double

    init(_ buffer: PixelBuffer, calibration: RawCalibration?) {
        self.buffer = buffer
        let bits = if case .bayer16(_, let bits) = buffer.format { bits } else { 8 }
        black = Double(calibration?.blackLevel ?? 0)
        span = Double(calibration?.whiteLevel ?? (1 << bits) - 1) - black
        reader = buffer.pixelReader()
        planes = buffer.planes.indices.map { UnsafeRawPointer(buffer.baseAddress(plane: $0)) }
        strides = buffer.planes.map(\.bytesPerRow)
    }

    var hasColor: Bool {
        if case .gray8 = buffer.format { return false }
        return true
    }

    /// A channel at or above this linear level (250/255 encoded) is taken as clipped: near full
    /// scale the first channel to clip has already bent the pixel's colour.
    static let clippedLevel = 0.955

    /// Linear RGB of pixel (`x`, `y`) (for bayer16: of its 2×2 quad), or nil when a channel is
    /// clipped (`clippedLevel`).
    func linearRGB(x: Int, y: Int) -> SIMD3<Double>? {
        guard let reader else { return quadRGB(x: x, y: y) }
        let encoded = reader.pixel(x: x, y: y)
        guard max(encoded.red, encoded.green, encoded.blue) < 250 else { return nil }
        let curve = SRGB.linearOf8Bit
        return SIMD3(Double(curve[Int(encoded.red)]), Double(curve[Int(encoded.green)]), Double(curve[Int(encoded.blue)]))
    }

    /// Linear RGB of the bayer16 quad holding pixel (`x`, `y`), or nil when clipped.
    private func quadRGB(x: Int, y: Int) -> SIMD3<Double>? {
        guard case .bayer16(let pattern, _) = buffer.format else { return nil }
        // Red at the pattern's red site, blue diagonal from it, green on the other two.
        let qx = min(x & ~1, buffer.width - 2), qy = min(y & ~1, buffer.height - 2)
        let (rx, ry) = pattern.redSite
        func sample(_ dx: Int, _ dy: Int) -> Double {
            Double(UInt16(littleEndian: planes[0].loadUnaligned(fromByteOffset: (qy + dy) * strides[0] + (qx + dx) * 2, as: UInt16.self)))
        }
        let rgb = (SIMD3(sample(rx, ry), (sample(1 - rx, ry) + sample(rx, 1 - ry)) / 2, sample(1 - rx, 1 - ry)) - black) / span
        return rgb.max() >= ColorSampler.clippedLevel ? nil : rgb
    }
}
