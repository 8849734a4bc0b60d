import CameraCore

/// Stores rows of packed 8-bit R'G'B' into a buffer in its pixel format, two rows at a time so
/// that 4:2:0 chroma can average a 2×2 block.
struct PixelRowWriter {
    let buffer: PixelBuffer

    /// Writes `rows` (1 or 2) rows of `buffer.width` R'G'B' pixels from `rgb` at row `y`.
    func write(rgb: UnsafePointer<UInt8>, rows: Int, at y: Int) {
        let width = buffer.width
        switch buffer.format {
        case .bgra8:
            for row in 0..<rows {
                let out = line(plane: 0, y + row)
                let input = rgb + row * width * 3
                for x in 0..<width {
                    out[x * 4] = input[x * 3 + 2]
                    out[x * 4 + 1] = input[x * 3 + 1]
                    out[x * 4 + 2] = input[x * 3]
                    out[x * 4 + 3] = 255
                }
            }
        case .gray8:
            for row in 0..<rows {
                let out = line(plane: 0, y + row)
                let input = rgb + row * width * 3
                for x in 0..<width {
                    out[x] = BT709.encode(red: Float(input[x * 3]), green: Float(input[x * 3 + 1]),
                                          blue: Float(input[x * 3 + 2]), range: .full).y
                }
            }
        case .yuyv422:
            for row in 0..<rows {
                let out = line(plane: 0, y + row)
                let input = rgb + row * width * 3
                for x in stride(from: 0, to: width, by: 2) {
                    let left = encode(input + x * 3, range: .video), right = encode(input + x * 3 + 3, range: .video)
                    out[x * 2] = left.y
                    out[x * 2 + 1] = average(left.cb, right.cb)
                    out[x * 2 + 2] = right.y
                    out[x * 2 + 3] = average(left.cr, right.cr)
                }
            }
        case .nv12(let range):
            precondition(rows == 2, "nv12 is written in row pairs")
            let top = line(plane: 0, y), bottom = line(plane: 0, y + 1), chroma = line(plane: 1, y / 2)
            let second = rgb + width * 3
            for x in stride(from: 0, to: width, by: 2) {
                let a = encode(rgb + x * 3, range: range), b = encode(rgb + x * 3 + 3, range: range)
                let c = encode(second + x * 3, range: range), d = encode(second + x * 3 + 3, range: range)
                top[x] = a.y
                top[x + 1] = b.y
                bottom[x] = c.y
                bottom[x + 1] = d.y
                chroma[x] = UInt8((Int(a.cb) + Int(b.cb) + Int(c.cb) + Int(d.cb) + 2) / 4)
                chroma[x + 1] = UInt8((Int(a.cr) + Int(b.cr) + Int(c.cr) + Int(d.cr) + 2) / 4)
            }
        case .bayer16:
            preconditionFailure("a Bayer mosaic is read out by SensorReadout, not converted from R'G'B'")
        }
    }

    private func line(plane: Int, _ row: Int) -> UnsafeMutablePointer<UInt8> {
        (buffer.baseAddress(plane: plane) + row * buffer.planes[plane].bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }

    private func encode(_ pixel: UnsafePointer<UInt8>, range: YCbCrRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        BT709.encode(red: Float(pixel[0]), green: Float(pixel[1]), blue: Float(pixel[2]), range: range)
    }

    private func average(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8((UInt16(a) + UInt16(b) + 1) / 2)
    }
}
