import CameraCore

/// One or two rows of raw sensor values (planar red, green, blue) and the lookup tables that turn
/// them into 8-bit R'G'B'.
struct RawRows {
    let raw: UnsafePointer<Int32>
    /// Values between the red, green and blue planes of a row.
    let planeStride: Int
    /// Three tables of 4096 entries: red, green, blue.
    let lut: UnsafePointer<UInt8>

    @inline(__always)
    func value(_ row: Int, _ channel: Int, _ x: Int) -> UInt8 {
        lut[channel &* 4096 &+ Int(raw[(row &* 3 &+ channel) &* planeStride &+ x])]
    }

    @inline(__always)
    func ycbcr(_ row: Int, _ x: Int, range: YCbCrRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        BT709.encode(red: value(row, 0, x), green: value(row, 1, x), blue: value(row, 2, x), range: range)
    }
}

/// Stores rows of raw sensor values into a buffer in its pixel format, two rows at a time so
/// that 4:2:0 chroma can average a 2×2 block.
///
/// The per-pixel loops index with wrapping arithmetic (`&+`, `&*`): positions within a row
/// cannot overflow, and the checks would cost more than the stores.
struct PixelRowWriter {
    let buffer: PixelBuffer

    /// Writes `count` (1 or 2) rows from `rows` at buffer row `y`.
    func write(_ rows: RawRows, count: Int, at y: Int) {
        let width = buffer.width
        switch buffer.format {
        case .bgra8:
            for row in 0..<count {
                let out = UnsafeMutableRawPointer(line(plane: 0, y + row)).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let pixel = UInt32(rows.value(row, 2, x)) | UInt32(rows.value(row, 1, x)) &<< 8
                        | UInt32(rows.value(row, 0, x)) &<< 16 | 0xFF00_0000
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
                for x in stride(from: 0, to: width, by: 2) {
                    let left = rows.ycbcr(row, x, range: .video), right = rows.ycbcr(row, x &+ 1, range: .video)
                    let pair = out + x &* 2
                    pair[0] = left.y
                    pair[1] = average(left.cb, right.cb)
                    pair[2] = right.y
                    pair[3] = average(left.cr, right.cr)
                }
            }
        case .nv12(let range):
            precondition(count == 2, "nv12 is written in row pairs")
            let top = line(plane: 0, y), bottom = line(plane: 0, y + 1), chroma = line(plane: 1, y / 2)
            for x in stride(from: 0, to: width, by: 2) {
                let a = rows.ycbcr(0, x, range: range), b = rows.ycbcr(0, x &+ 1, range: range)
                let c = rows.ycbcr(1, x, range: range), d = rows.ycbcr(1, x &+ 1, range: range)
                (top[x], top[x &+ 1], bottom[x], bottom[x &+ 1]) = (a.y, b.y, c.y, d.y)
                (chroma[x], chroma[x &+ 1]) = (average(a.cb, b.cb, c.cb, d.cb), average(a.cr, b.cr, c.cr, d.cr))
            }
        case .bayer16:
            preconditionFailure("a Bayer mosaic is read out by SensorReadout, not converted from R'G'B'")
        }
    }

    private func line(plane: Int, _ row: Int) -> UnsafeMutablePointer<UInt8> {
        (buffer.baseAddress(plane: plane) + row * buffer.planes[plane].bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }

    /// The rounded mean of two samples (wrapping arithmetic: the sum of bytes cannot overflow).
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
