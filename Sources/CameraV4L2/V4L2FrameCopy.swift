import CameraCore

/// Copies a frame out of a driver buffer into a `PixelBuffer`: the driver's rows are
/// `bytesPerLine` apart, the buffer's are padded to 64 bytes, so a plane whose rows are as far
/// apart in both goes in one copy and any other row by row. YUYV, NV12, GREY and 10-, 12- and
/// 16-bit Bayer (little-endian 16-bit words) are laid out in memory as `.yuyv422`, `.nv12`,
/// `.gray8` and `.bayer16` are, so a copy is all it takes; 8-bit Bayer is widened into 16-bit words.
enum V4L2FrameCopy {
    /// The bytes a whole frame of `format` takes in a driver buffer.
    static func byteCount(of format: V4L2ImageFormat) -> Int {
        let rows = format.code == .nv12 ? format.size.height + format.size.height / 2 : format.size.height
        return rows * format.bytesPerLine
    }

    /// Copies the frame in `source` (laid out as `format`) into `buffer`. Returns false, copying
    /// nothing, when `source` holds less than a whole frame.
    static func copy(_ source: UnsafeRawBufferPointer, format: V4L2ImageFormat, into buffer: PixelBuffer) -> Bool {
        guard let base = source.baseAddress, source.count >= byteCount(of: format) else { return false }
        if case .bayer16(_, significantBits: 8)? = format.code.pixelFormat {
            widen(base, bytesPerLine: format.bytesPerLine, into: buffer)
            return true
        }
        var offset = 0
        for (index, plane) in buffer.planes.enumerated() {
            let destination = buffer.baseAddress(plane: index)
            if plane.bytesPerRow == format.bytesPerLine {
                destination.copyMemory(from: base + offset, byteCount: plane.height * plane.bytesPerRow)
            } else {
                for row in 0..<plane.height {
                    (destination + row * plane.bytesPerRow).copyMemory(from: base + offset + row * format.bytesPerLine, byteCount: plane.rowLength)
                }
            }
            offset += plane.height * format.bytesPerLine
        }
        return true
    }

    /// Rows of 8-bit samples, `bytesPerLine` apart from `source`, into the 16-bit words of `buffer`.
    private static func widen(_ source: UnsafeRawPointer, bytesPerLine: Int, into buffer: PixelBuffer) {
        let (width, stride) = (buffer.width, buffer.planes[0].bytesPerRow)
        let destination = buffer.baseAddress(plane: 0)
        for row in 0..<buffer.height {
            let samples = (source + row * bytesPerLine).assumingMemoryBound(to: UInt8.self)
            let words = (destination + row * stride).assumingMemoryBound(to: UInt16.self)
            for x in 0..<width { words[x] = UInt16(samples[x]).littleEndian }
        }
    }
}
