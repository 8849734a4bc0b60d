import CameraCore

/// The brightness of a frame as the viewfinder shows it: the mean Rec. 709 luma of the encoded
/// values (0…1, as the seed article's brightness bar), and the fractions of clipped (≥ 250/255)
/// and crushed (≤ 5/255) pixels.
public struct LumaSummary: Sendable, Hashable {
    public let brightness: Double
    public let clippedFraction: Double
    public let crushedFraction: Double
    public let sampleCount: Int

    /// Summarises `buffer`, reading every `step`-th pixel in both directions. Video-range Y'CbCr
    /// is rescaled so that 16 reads as black and 235 as white.
    public init(_ buffer: PixelBuffer, step: Int = 1) {
        precondition(step > 0, "sampling step must be positive")
        var histogram = [Int](repeating: 0, count: 256)
        LumaSummary.accumulate(buffer, step: step, into: &histogram)
        let count = histogram.reduce(0, +)
        let weighted = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element }
        sampleCount = count
        brightness = count > 0 ? Double(weighted) / Double(count) / 255 : 0
        clippedFraction = count > 0 ? Double(histogram[250...].reduce(0, +)) / Double(count) : 0
        crushedFraction = count > 0 ? Double(histogram[...5].reduce(0, +)) / Double(count) : 0
    }

    /// Adds the full-range 8-bit luma of every sampled pixel to `histogram`.
    private static func accumulate(_ buffer: PixelBuffer, step: Int, into histogram: inout [Int]) {
        let plane = buffer.planes[0]
        let base = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        switch buffer.format {
        case .bgra8:
            for y in stride(from: 0, to: buffer.height, by: step) {
                let row = base + y * plane.bytesPerRow
                for x in stride(from: 0, to: buffer.width, by: step) {
                    let luma = BT709.redWeight * Float(row[x * 4 + 2]) + BT709.greenWeight * Float(row[x * 4 + 1])
                        + BT709.blueWeight * Float(row[x * 4])
                    histogram[Int(BT709.byte(luma))] += 1
                }
            }
        case .nv12, .yuyv422, .gray8:
            let (stride, videoRange) = lumaLayout(buffer.format)
            var toFull = [UInt8](repeating: 0, count: 256)
            for value in 0..<256 {
                toFull[value] = videoRange ? BT709.byte((Float(value) - 16) * 255 / 219) : UInt8(value)
            }
            for y in Swift.stride(from: 0, to: buffer.height, by: step) {
                let row = base + y * plane.bytesPerRow
                for x in Swift.stride(from: 0, to: buffer.width, by: step) {
                    histogram[Int(toFull[Int(row[x * stride])])] += 1
                }
            }
        case .bayer16:
            preconditionFailure("luma of a raw Bayer mosaic is not defined; demosaic it first")
        }
    }

    /// Bytes between luma samples and whether they are video range.
    private static func lumaLayout(_ format: PixelFormat) -> (stride: Int, videoRange: Bool) {
        switch format {
        case .nv12(let range): (1, range == .video)
        case .yuyv422: (2, true)
        default: (1, false)
        }
    }
}
