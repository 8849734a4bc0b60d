/// Conversion of any pixel format to packed 8-bit RGB, the common form for still-image encoders
/// (PNG, JPEG) and for looking at a frame.
extension PixelBuffer {
    /// The image as packed 8-bit R, G, B (3 bytes per pixel, rows `width × 3` bytes, no padding).
    ///
    /// - bgra8: channels reordered, alpha dropped.
    /// - nv12: BT.709 Y'CbCr in the buffer's range (video 16…235/240 or full 0…255); each chroma
    ///   sample covers its 2×2 block of pixels.
    /// - yuyv422: BT.709, video range; each chroma pair covers two pixels.
    /// - gray8: the luma in all three channels.
    /// - bayer16: bilinear demosaic (each missing colour is the mean of that colour's samples in
    ///   the 3×3 neighbourhood); samples are scaled linearly from `significantBits` to 8 bits with
    ///   no white balance or tone curve, so the result looks like the raw sensor data.
    public func rgb8() -> [UInt8] {
        switch format {
        case .bgra8: rgb8(BGRAReader(self))
        case .gray8: rgb8(GrayReader(self))
        case .nv12(.video): rgb8(NV12Reader<VideoRange>(self))
        case .nv12(.full): rgb8(NV12Reader<FullRange>(self))
        case .yuyv422: rgb8(YUYVReader(self))
        case .bayer16(let pattern, let bits): bayerRGB(pattern: pattern, significantBits: bits)
        }
    }

    private func rgb8<Reader: PixelReader>(_ reader: Reader) -> [UInt8] {
        mapPixels { x, y in
            let pixel = reader.pixel(x: x, y: y)
            return (pixel.red, pixel.green, pixel.blue)
        }
    }

    /// Packed RGB of the colour `pixel(x, y)` gives for each pixel, row by row.
    private func mapPixels(_ pixel: (_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = pixel(x, y)
                result.append(rgb.red)
                result.append(rgb.green)
                result.append(rgb.blue)
            }
        }
        return result
    }

    private func bayerRGB(pattern: BayerPattern, significantBits: Int) -> [UInt8] {
        let maximum = (1 << significantBits) - 1
        let words = bytes(plane: 0)
        func sample(_ x: Int, _ y: Int) -> Int {
            let index = (y * width + x) * 2
            return min(Int(words[index]) | Int(words[index + 1]) << 8, maximum)
        }
        return mapPixels { x, y in
            var sums = [0, 0, 0]
            var counts = [0, 0, 0]
            let own = pattern.channel(x: x, y: y)
            for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                for nx in max(x - 1, 0)...min(x + 1, width - 1) {
                    let channel = pattern.channel(x: nx, y: ny)
                    guard channel != own || (nx == x && ny == y) else { continue }
                    sums[channel] += sample(nx, ny)
                    counts[channel] += 1
                }
            }
            // The rounded mean scaled to 0…255: (sum × 255 + half) / (count × maximum).
            let scaled = (0..<3).map { channel in
                UInt8((sums[channel] * 255 + counts[channel] * maximum / 2) / (counts[channel] * maximum))
            }
            return (scaled[0], scaled[1], scaled[2])
        }
    }
}

extension BayerPattern {
    /// The colour filter over pixel (`x`, `y`): 0 red, 1 green, 2 blue.
    fileprivate func channel(x: Int, y: Int) -> Int {
        switch ((x + redSite.x).isMultiple(of: 2), (y + redSite.y).isMultiple(of: 2)) {
        case (true, true): 0
        case (false, false): 2
        default: 1
        }
    }
}

/// The order of the three channels of packed 8-bit pixels.
public enum PackedChannelOrder: Sendable {
    /// R, G, B: what `rgb8()` gives and PPM files hold.
    case rgb
    /// B, G, R: OpenCV's order.
    case bgr
}

extension PixelBuffer {
    /// A bgra8 buffer (alpha 255) of `width`×`height` pixels packed three bytes each in `order`, row
    /// after row with no padding — the inverse of `rgb8()`, for images coming back from tools.
    public static func bgra8(packed bytes: UnsafeRawBufferPointer, width: Int, height: Int,
                             order: PackedChannelOrder) throws(PixelBufferError) -> PixelBuffer {
        precondition(bytes.count >= width * height * 3, "\(bytes.count) bytes cannot hold \(width)x\(height) packed pixels")
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        let bytesPerRow = buffer.planes[0].bytesPerRow
        let (red, blue) = order == .rgb ? (0, 2) : (2, 0)
        buffer.withUnsafeMutableBytes(plane: 0) { target in
            for y in 0..<height {
                for x in 0..<width {
                    let from = (y * width + x) * 3, to = y * bytesPerRow + x * 4
                    (target[to], target[to + 1], target[to + 2], target[to + 3]) = (bytes[from + blue], bytes[from + 1], bytes[from + red], 255)
                }
            }
        }
        return buffer
    }
}
