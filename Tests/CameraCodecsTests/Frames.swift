import CameraCore

/// Frames of known content in any pixel format, and ways to compare decoded pixels with them.
enum Frames {
    typealias Colour = (red: UInt8, green: UInt8, blue: UInt8)

    static func bgra8(width: Int, height: Int, _ colour: (Int, Int) -> Colour) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = colour(x, y)
                for (channel, value) in [pixel.blue, pixel.green, pixel.red, 255].enumerated() {
                    buffer[plane: 0, x: x * 4 + channel, y: y] = value
                }
            }
        }
        return buffer
    }

    /// nv12 in `range`, BT.709; each 2×2 block takes its chroma from the block's top-left colour.
    static func nv12(_ range: YCbCrRange, width: Int, height: Int, _ colour: (Int, Int) -> Colour) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .nv12(range), width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = colour(x, y)
                let encoded = BT709.encode(red: pixel.red, green: pixel.green, blue: pixel.blue, range: range)
                buffer[plane: 0, x: x, y: y] = encoded.y
                if x.isMultiple(of: 2), y.isMultiple(of: 2) {
                    buffer[plane: 1, x: x, y: y / 2] = encoded.cb
                    buffer[plane: 1, x: x + 1, y: y / 2] = encoded.cr
                }
            }
        }
        return buffer
    }

    /// A smooth colour gradient: red grows left to right, green top to bottom, blue the other way.
    static func gradient(_ format: PixelFormat, width: Int, height: Int) throws -> PixelBuffer {
        let colour: (Int, Int) -> Colour = { x, y in
            (UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8(255 - x * 200 / max(width - 1, 1)))
        }
        switch format {
        case .bgra8: return try bgra8(width: width, height: height, colour)
        case .nv12(let range): return try nv12(range, width: width, height: height, colour)
        case .gray8, .yuyv422, .bayer16:
            let buffer = try PixelBuffer(format: format, width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let red = colour(x, y).red
                    switch format {
                    case .gray8: buffer[plane: 0, x: x, y: y] = red
                    case .yuyv422:
                        buffer[plane: 0, x: x * 2, y: y] = 16 + UInt8(Int(red) * 219 / 255)
                        buffer[plane: 0, x: x * 2 + 1, y: y] = x.isMultiple(of: 2) ? 100 : 170
                    default: buffer[sample16: x, y: y] = UInt16(Int(red) * 16)
                    }
                }
            }
            return buffer
        }
    }

    /// The largest difference between corresponding bytes.
    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count)
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The mean absolute difference between corresponding bytes.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty)
        return Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.count)
    }
}
