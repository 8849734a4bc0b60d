import CameraCore
@testable import CameraMetering
import Testing

@Suite("SIMD row sums against a scalar reference")
struct RowSumsTests {
    /// Widths around the 16- and 64-byte steps, plus rows long enough to flush the 16-bit lanes
    /// (bgra8 and yuyv422 after 4096 pixels, packed luma after 8192).
    static let widths = [1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 4095, 4096, 4097, 4200, 8191, 8192, 8300]

    /// A row of `count` values plus `padding` random bytes after it, starting `offset` bytes into
    /// its storage (so loads are unaligned too).
    private func randomRow(bytes count: Int, offset: Int, padding: Int, rng: inout SplitMix64,
                           value: (inout SplitMix64) -> UInt8) -> [UInt8] {
        var row = (0..<offset).map { _ in UInt8.random(in: 0...255, using: &rng) }
        row += (0..<count).map { _ in value(&rng) }
        row += (0..<padding).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return row
    }

    /// Random bytes, or all 255 (the worst case for lane overflow), or all 0.
    static let fills: [String] = ["random", "white", "black"]

    private func fill(_ name: String) -> (inout SplitMix64) -> UInt8 {
        switch name {
        case "white": { _ in 255 }
        case "black": { _ in 0 }
        default: { UInt8.random(in: 0...255, using: &$0) }
        }
    }

    @Test("bgra sums equal the scalar sums of each channel", arguments: widths, fills)
    func bgra(width: Int, fill name: String) {
        var rng = SplitMix64(seed: UInt64(width) &* 7919 &+ UInt64(name.count))
        for offset in [0, 4, 3] {
            let row = randomRow(bytes: width * 4, offset: offset, padding: 64, rng: &rng, value: fill(name))
            var blue = 0, green = 0, red = 0
            for x in 0..<width {
                blue += Int(row[offset + x * 4])
                green += Int(row[offset + x * 4 + 1])
                red += Int(row[offset + x * 4 + 2])
            }
            let sums = row.withUnsafeBytes { RowSums.bgra($0.baseAddress! + offset, count: width) }
            #expect(sums.blue == blue && sums.green == green && sums.red == red,
                    "width \(width), offset \(offset), \(name): \(sums) vs (\(blue), \(green), \(red))")
        }
    }

    @Test("luma sums equal the scalar sum at stride 1 and 2", arguments: widths, fills)
    func luma(width: Int, fill name: String) {
        var rng = SplitMix64(seed: UInt64(width) &* 104_729 &+ UInt64(name.count))
        for stride in [1, 2] {
            for offset in [0, 1, 2] {
                let row = randomRow(bytes: width * stride, offset: offset, padding: 64, rng: &rng, value: fill(name))
                let expected = (0..<width).reduce(0) { $0 + Int(row[offset + $1 * stride]) }
                let sum = row.withUnsafeBytes { RowSums.luma($0.baseAddress! + offset, count: width, stride: stride) }
                #expect(sum == expected, "width \(width), stride \(stride), offset \(offset), \(name): \(sum) vs \(expected)")
            }
        }
    }

    @Test("Row means of random frames match a scalar reference, padding filled with junk",
          arguments: [PixelFormat.bgra8, .gray8, .nv12(.full), .nv12(.video), .yuyv422], [2, 16, 18, 34, 100, 258])
    func rowMeans(format: PixelFormat, width: Int) throws {
        var rng = SplitMix64(seed: UInt64(width) &+ 31)
        let height = 6
        let frame = try PixelBuffer(format: format, width: width, height: height)
        for plane in frame.planes.indices {
            frame.withUnsafeMutableBytes(plane: plane) { bytes in
                for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
            }
        }
        let statistics = try stepFour.analyze(frame)
        #expect(statistics.rowMeans.count == height)
        for y in 0..<height {
            var sum = 0.0
            for x in 0..<width {
                switch format {
                case .bgra8:
                    sum += 0.2126 * Double(frame[plane: 0, x: x * 4 + 2, y: y]) + 0.7152 * Double(frame[plane: 0, x: x * 4 + 1, y: y])
                        + 0.0722 * Double(frame[plane: 0, x: x * 4, y: y])
                case .yuyv422:
                    sum += Double(frame[plane: 0, x: x * 2, y: y])
                default:
                    sum += Double(frame[plane: 0, x: x, y: y])
                }
            }
            var expected = sum / Double(width)
            expected = isVideoRange(format) ? min(max((expected - 16) / 219, 0), 1) : expected / 255
            #expect(abs(Double(statistics.rowMeans[y]) - expected) <= 1e-5, "\(format) width \(width) row \(y)")
        }
    }
}
