import CameraCore

/// Writes tone-mapped rows into a buffer in its pixel format: bgra8 packed straight from the
/// sRGB table; the others through rows of 8-bit R'G'B' (`EncodedRows`), two at a time, as gray8
/// (full-range BT.709 luma), yuyv422 (video range) and nv12 (its range) by `BT709.encode`, each
/// chroma sample that of its pair's or 2×2 block's mean R'G'B' (within a code value of the mean of
/// their chroma, which the simulated camera writes, for a third of the encodes).
struct OutputEncoder {
    let buffer: PixelBuffer

    /// Fails for formats the pipeline does not encode (bayer16).
    init(_ buffer: PixelBuffer) throws(ISPError) {
        if case .bayer16 = buffer.format { throw .unsupportedOutputFormat(buffer.format) }
        self.buffer = buffer
    }

    /// Writes row `y`, given as table indices. Rows come in order: for formats other than bgra8
    /// an even row waits in `pairing` for the odd one (or the last row) to be written with it.
    func write(_ row: IndexRow, y: Int, pairing rows: EncodedRows.Rows) {
        if case .bgra8 = buffer.format {
            let out = UnsafeMutableRawPointer(line(plane: 0, y)).assumingMemoryBound(to: UInt32.self)
            for x in 0..<buffer.width {
                let pixel = UInt32(row.value(2, x)) | UInt32(row.value(1, x)) &<< 8 | UInt32(row.value(0, x)) &<< 16 | 0xFF00_0000
                out[x] = pixel.littleEndian
            }
            return
        }
        for channel in 0..<3 {
            let bytes = rows.plane(y & 1, channel)
            for x in 0..<buffer.width { bytes[x] = row.value(channel, x) }
        }
        if y & 1 == 1 || y == buffer.height - 1 { write(rows, count: (y & 1) + 1, at: y & ~1) }
    }

    /// Writes `count` (1 or 2; nv12 needs 2) rows of R'G'B' from `rows` at buffer row `y`.
    private func write(_ rows: EncodedRows.Rows, count: Int, at y: Int) {
        let width = buffer.width
        switch buffer.format {
        case .gray8:
            for row in 0..<count {
                let out = line(plane: 0, y + row)
                for x in 0..<width { out[x] = rows.ycbcr(row, x, range: .full).y }
            }
        case .yuyv422:
            for row in 0..<count {
                let out = line(plane: 0, y + row)
                for x in Swift.stride(from: 0, to: width, by: 2) {
                    let chroma = BT709.encode(red: pairMean(rows, row, x, 0), green: pairMean(rows, row, x, 1),
                                              blue: pairMean(rows, row, x, 2), range: .video)
                    let pair = out + x &* 2
                    (pair[0], pair[1], pair[2], pair[3]) = (rows.ycbcr(row, x, range: .video).y, chroma.cb,
                                                            rows.ycbcr(row, x &+ 1, range: .video).y, chroma.cr)
                }
            }
        case .nv12(.video):
            writeNV12(rows, count: count, at: y, VideoRange.self)
        case .nv12(.full):
            writeNV12(rows, count: count, at: y, FullRange.self)
        case .bgra8, .bayer16:
            preconditionFailure("bgra8 is written from the table indices; init rejects bayer16")
        }
    }

    /// nv12 in a range known at compile time, so that `BT709.encode`'s weights fold to constants.
    private func writeNV12<Range: StaticYCbCrRange>(_ rows: EncodedRows.Rows, count: Int, at y: Int, _: Range.Type) {
        precondition(count == 2, "nv12 is written in row pairs")
        let top = line(plane: 0, y), bottom = line(plane: 0, y + 1), chroma = line(plane: 1, y / 2)
        for x in Swift.stride(from: 0, to: buffer.width, by: 2) {
            (top[x], top[x &+ 1]) = (rows.ycbcr(0, x, range: Range.range).y, rows.ycbcr(0, x &+ 1, range: Range.range).y)
            (bottom[x], bottom[x &+ 1]) = (rows.ycbcr(1, x, range: Range.range).y, rows.ycbcr(1, x &+ 1, range: Range.range).y)
            let mean = BT709.encode(red: blockMean(rows, x, 0), green: blockMean(rows, x, 1), blue: blockMean(rows, x, 2), range: Range.range)
            (chroma[x], chroma[x &+ 1]) = (mean.cb, mean.cr)
        }
    }

    private func line(plane: Int, _ row: Int) -> UnsafeMutablePointer<UInt8> {
        (buffer.baseAddress(plane: plane) + row * buffer.planes[plane].bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }

    /// The rounded mean of `channel` over pixels `x` and `x` + 1 of `row`.
    @inline(__always)
    private func pairMean(_ rows: EncodedRows.Rows, _ row: Int, _ x: Int, _ channel: Int) -> UInt8 {
        let plane = rows.plane(row, channel)
        return UInt8(truncatingIfNeeded: (UInt16(plane[x]) &+ UInt16(plane[x &+ 1]) &+ 1) &>> 1)
    }

    /// The rounded mean of `channel` over the 2×2 block of both rows from column `x`.
    @inline(__always)
    private func blockMean(_ rows: EncodedRows.Rows, _ x: Int, _ channel: Int) -> UInt8 {
        let top = rows.plane(0, channel), bottom = rows.plane(1, channel)
        let sum = UInt16(top[x]) &+ UInt16(top[x &+ 1]) &+ UInt16(bottom[x]) &+ UInt16(bottom[x &+ 1])
        return UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
    }
}
