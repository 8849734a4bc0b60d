import CameraCore

/// Writes rows of 8-bit R'G'B' into a buffer in its pixel format: bgra8 as is, gray8 as
/// full-range BT.709 luma, yuyv422 (video range) and nv12 (its range) through `BT709.encode`,
/// chroma averaged over each pair or 2×2 block — the same encodings the simulated camera writes.
struct OutputEncoder {
    let buffer: PixelBuffer

    /// Fails for formats the pipeline does not encode (bayer16).
    init(_ buffer: PixelBuffer) throws(ISPError) {
        if case .bayer16 = buffer.format { throw .unsupportedOutputFormat(buffer.format) }
        self.buffer = buffer
    }

    /// Writes `count` (1 or 2; nv12 needs 2) rows from `rows` at buffer row `y`.
    func write(_ rows: EncodedRows.Rows, count: Int, at y: Int) {
        let width = buffer.width
        switch buffer.format {
        case .bgra8:
            for row in 0..<count {
                let out = UnsafeMutableRawPointer(line(plane: 0, y + row)).assumingMemoryBound(to: UInt32.self)
                let (red, green, blue) = (rows.plane(row, 0), rows.plane(row, 1), rows.plane(row, 2))
                for x in 0..<width {
                    let pixel = UInt32(blue[x]) | UInt32(green[x]) &<< 8 | UInt32(red[x]) &<< 16 | 0xFF00_0000
                    out[x] = pixel.littleEndian
                }
            }
        case .gray8:
            for row in 0..<count {
                let out = line(plane: 0, y + row)
                for x in 0..<width { out[x] = rows.ycbcr(row, x, range: .full).y }
            }
        case .yuyv422:
            for row in 0..<count {
                let out = line(plane: 0, y + row)
                for x in Swift.stride(from: 0, to: width, by: 2) {
                    let left = rows.ycbcr(row, x, range: .video), right = rows.ycbcr(row, x &+ 1, range: .video)
                    let pair = out + x &* 2
                    (pair[0], pair[1], pair[2], pair[3]) = (left.y, average(left.cb, right.cb), right.y, average(left.cr, right.cr))
                }
            }
        case .nv12(.video):
            writeNV12(rows, count: count, at: y, VideoRange.self)
        case .nv12(.full):
            writeNV12(rows, count: count, at: y, FullRange.self)
        case .bayer16:
            preconditionFailure("init rejects bayer16")
        }
    }

    /// nv12 in a range known at compile time, so that `BT709.encode`'s weights fold to constants.
    private func writeNV12<Range: StaticYCbCrRange>(_ rows: EncodedRows.Rows, count: Int, at y: Int, _: Range.Type) {
        precondition(count == 2, "nv12 is written in row pairs")
        let top = line(plane: 0, y), bottom = line(plane: 0, y + 1), chroma = line(plane: 1, y / 2)
        for x in Swift.stride(from: 0, to: buffer.width, by: 2) {
            let a = rows.ycbcr(0, x, range: Range.range), b = rows.ycbcr(0, x &+ 1, range: Range.range)
            let c = rows.ycbcr(1, x, range: Range.range), d = rows.ycbcr(1, x &+ 1, range: Range.range)
            (top[x], top[x &+ 1], bottom[x], bottom[x &+ 1]) = (a.y, b.y, c.y, d.y)
            (chroma[x], chroma[x &+ 1]) = (average(a.cb, b.cb, c.cb, d.cb), average(a.cr, b.cr, c.cr, d.cr))
        }
    }

    private func line(plane: Int, _ row: Int) -> UnsafeMutablePointer<UInt8> {
        (buffer.baseAddress(plane: plane) + row * buffer.planes[plane].bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }

    /// The rounded mean of two samples.
    @inline(__always)
    private func average(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b) &+ 1) &>> 1)
    }

    /// The rounded mean of four samples.
    @inline(__always)
    private func average(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b) &+ UInt16(c) &+ UInt16(d) &+ 2) &>> 2)
    }
}
