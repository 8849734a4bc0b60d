import CameraCore

/// Shrinks a frame to thumbnail size by a box filter: each output sample is the rounded mean of
/// the source samples it covers. Good enough for a 160-pixel EXIF thumbnail and cheap: one read of
/// each source byte, no floating point.
enum ThumbnailScaler {
    /// `buffer` shrunk to fit inside `bounds`, aspect ratio kept; never enlarged. bgra8, gray8 and
    /// nv12 keep their format (nv12 rounds the size down to even numbers); other formats become
    /// bgra8 through `rgb8()`.
    static func scaled(_ buffer: PixelBuffer, fitting bounds: PixelSize) throws(CodecError) -> PixelBuffer {
        guard bounds.width >= 2, bounds.height >= 2 else {
            throw CodecError(.invalidSetting, "a thumbnail must fit at least 2×2 pixels, not \(bounds) — choose larger bounds")
        }
        let scale = min(Double(bounds.width) / Double(buffer.width), Double(bounds.height) / Double(buffer.height), 1)
        var width = max(Int((Double(buffer.width) * scale).rounded()), 1)
        var height = max(Int((Double(buffer.height) * scale).rounded()), 1)
        if case .nv12 = buffer.format {
            width = max(width & ~1, 2)
            height = max(height & ~1, 2)
        }
        let format: PixelFormat = switch buffer.format {
        case .bgra8, .gray8, .nv12: buffer.format
        case .yuyv422, .bayer16: .bgra8
        }
        let thumbnail = try Self.buffer(format, width, height)
        switch buffer.format {
        case .bgra8, .gray8, .nv12:
            let channels = buffer.format == .bgra8 ? [4] : buffer.format == .gray8 ? [1] : [1, 2]
            for (index, plane) in buffer.planes.enumerated() {
                let target = thumbnail.planes[index]
                average(UnsafeRawPointer(buffer.baseAddress(plane: index)), bytesPerRow: plane.bytesPerRow,
                        width: plane.rowLength / channels[index], height: plane.height, channels: channels[index],
                        into: thumbnail.baseAddress(plane: index), bytesPerRow: target.bytesPerRow,
                        width: target.rowLength / channels[index], height: target.height)
            }
        case .yuyv422, .bayer16:
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            buffer.rgb8().withUnsafeBytes { source in
                rgb.withUnsafeMutableBytes { target in
                    average(source.baseAddress!, bytesPerRow: buffer.width * 3, width: buffer.width, height: buffer.height,
                            channels: 3, into: target.baseAddress!, bytesPerRow: width * 3, width: width, height: height)
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = (y * width + x) * 3
                    thumbnail[plane: 0, x: x * 4, y: y] = rgb[pixel + 2]
                    thumbnail[plane: 0, x: x * 4 + 1, y: y] = rgb[pixel + 1]
                    thumbnail[plane: 0, x: x * 4 + 2, y: y] = rgb[pixel]
                    thumbnail[plane: 0, x: x * 4 + 3, y: y] = 255
                }
            }
        }
        return thumbnail
    }

    private static func buffer(_ format: PixelFormat, _ width: Int, _ height: Int) throws(CodecError) -> PixelBuffer {
        do {
            return try PixelBuffer(format: format, width: width, height: height)
        } catch {
            throw CodecError(.invalidSetting, "cannot make the thumbnail: \(error)")
        }
    }

    /// Box-filters a `width`×`height` grid of `channels`-byte samples into a smaller grid: the
    /// source rows of each output row are summed column by column (a straight loop over bytes),
    /// then each output sample adds up its columns of those sums.
    private static func average(_ source: UnsafeRawPointer, bytesPerRow sourceStride: Int, width: Int, height: Int,
                                channels: Int, into target: UnsafeMutableRawPointer, bytesPerRow targetStride: Int,
                                width targetWidth: Int, height targetHeight: Int) {
        let columnStarts = (0...targetWidth).map { $0 * width / targetWidth * channels }
        var columnSums = [UInt32](repeating: 0, count: width * channels)
        columnSums.withUnsafeMutableBufferPointer { sums in
            for targetY in 0..<targetHeight {
                let firstRow = targetY * height / targetHeight, endRow = (targetY + 1) * height / targetHeight
                sums.update(repeating: 0)
                for y in firstRow..<endRow {
                    let row = source.advanced(by: y * sourceStride).assumingMemoryBound(to: UInt8.self)
                    for index in 0..<sums.count { sums[index] &+= UInt32(row[index]) }
                }
                let output = target.advanced(by: targetY * targetStride).assumingMemoryBound(to: UInt8.self)
                for targetX in 0..<targetWidth {
                    let start = columnStarts[targetX], end = columnStarts[targetX + 1]
                    let count = UInt32((endRow - firstRow) * (end - start) / channels)
                    for channel in 0..<channels {
                        var sum: UInt32 = 0
                        for index in stride(from: start + channel, to: end, by: channels) { sum &+= sums[index] }
                        output[targetX * channels + channel] = UInt8((sum + count / 2) / count)
                    }
                }
            }
        }
    }
}
