import CameraCore

/// Copies a frame out of a driver buffer into a `PixelBuffer`: the driver's rows are
/// `bytesPerLine` apart, the buffer's are padded to 64 bytes, so a plane whose rows are as far
/// apart in both goes in one copy and any other row by row. YUYV, NV12 and GREY are laid out in
/// memory as `.yuyv422`, `.nv12` and `.gray8` are, so a copy is all it takes.
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
}
