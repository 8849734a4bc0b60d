import CameraCore
import Testing

@Suite struct PixelBufferRGBTests {
    /// Whether two RGB triples differ by at most `tolerance` in every channel.
    func close(_ a: ArraySlice<UInt8>, _ b: [UInt8], tolerance: Int = 1) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance } && a.count == b.count
    }

    @Test("bgra8 swaps blue and red and drops alpha")
    func bgraSwaps() throws {
        let buffer = try PixelBuffer(format: .bgra8, width: 1, height: 1)
        for (index, value) in [10, 20, 30, 40].enumerated() { buffer[plane: 0, x: index, y: 0] = UInt8(value) }
        #expect(buffer.rgb8() == [30, 20, 10])
    }

    @Test("gray8 repeats the luma in all channels")
    func grayRepeats() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 2, height: 1)
        buffer[plane: 0, x: 0, y: 0] = 0
        buffer[plane: 0, x: 1, y: 0] = 200
        #expect(buffer.rgb8() == [0, 0, 0, 200, 200, 200])
    }

    /// A 2×2 nv12 buffer of one colour.
    func nv12(_ range: YCbCrRange, y: UInt8, cb: UInt8 = 128, cr: UInt8 = 128) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .nv12(range), width: 2, height: 2)
        for row in 0..<2 { for x in 0..<2 { buffer[plane: 0, x: x, y: row] = y } }
        buffer[plane: 1, x: 0, y: 0] = cb
        buffer[plane: 1, x: 1, y: 0] = cr
        return buffer
    }

    @Test("nv12 luma maps through its range to grey", arguments: [
        (YCbCrRange.video, UInt8(16), UInt8(0)), (.video, 235, 255), (.video, 126, 128),
        (.video, 0, 0), (.video, 255, 255),
        (.full, 0, 0), (.full, 255, 255), (.full, 128, 128),
    ])
    func nv12Grey(range: YCbCrRange, y: UInt8, grey: UInt8) throws {
        #expect(try nv12(range, y: y).rgb8() == [UInt8](repeating: grey, count: 12))
    }

    @Test("nv12 video-range BT.709 red and full-range blue decode to those colours")
    func nv12Colours() throws {
        #expect(close(try nv12(.video, y: 63, cb: 102, cr: 240).rgb8()[0..<3], [255, 0, 0]))
        #expect(close(try nv12(.full, y: 18, cb: 255, cr: 116).rgb8()[0..<3], [0, 0, 255]))
    }

    @Test("each nv12 chroma sample colours its own 2×2 block")
    func nv12ChromaBlocks() throws {
        let buffer = try PixelBuffer(format: .nv12(.video), width: 4, height: 2)
        for y in 0..<2 { for x in 0..<4 { buffer[plane: 0, x: x, y: y] = 126 } }
        for (x, value) in [UInt8(128), 128, 16, 16].enumerated() { buffer[plane: 1, x: x, y: 0] = value }
        let rgb = buffer.rgb8()
        for y in 0..<2 {
            for x in 0..<4 {
                let pixel = rgb[((y * 4 + x) * 3)..<((y * 4 + x) * 3 + 3)]
                if x < 2 { #expect(pixel == [128, 128, 128]) } else { #expect(pixel[pixel.startIndex] < 128) }
            }
        }
    }

    @Test("yuyv422 is BT.709 video range, one chroma pair per two pixels")
    func yuyvVideoRange() throws {
        let buffer = try PixelBuffer(format: .yuyv422, width: 4, height: 1)
        for (x, value) in [UInt8(16), 128, 235, 128, 32, 240, 32, 118].enumerated() { buffer[plane: 0, x: x, y: 0] = value }
        let rgb = buffer.rgb8()
        #expect(rgb[0..<6] == [0, 0, 0, 255, 255, 255])
        #expect(close(rgb[6..<9], [0, 0, 255]) && close(rgb[9..<12], [0, 0, 255]))
    }

    /// A 4×4 RGGB mosaic whose red, green and blue sites hold the given samples.
    func mosaic(bits: Int, red: UInt16, green: UInt16, blue: UInt16) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: bits), width: 4, height: 4)
        for y in 0..<4 {
            for x in 0..<4 {
                buffer[sample16: x, y: y] = switch (x % 2, y % 2) {
                case (0, 0): red
                case (1, 1): blue
                default: green
                }
            }
        }
        return buffer
    }

    @Test("a full-scale Bayer mosaic is white at any bit depth", arguments: [(12, UInt16(4095)), (10, 1023), (12, 65535)])
    func bayerFullScaleIsWhite(bits: Int, sample: UInt16) throws {
        #expect(try mosaic(bits: bits, red: sample, green: sample, blue: sample).rgb8() == [UInt8](repeating: 255, count: 48))
    }

    @Test("a uniform Bayer colour is demosaiced to that colour at every pixel, scaled linearly")
    func bayerUniformColor() throws {
        let rgb = try mosaic(bits: 12, red: 4095, green: 2048, blue: 1024).rgb8()
        #expect(rgb == Array([[UInt8](arrayLiteral: 255, 128, 64)].repeated(16)))
    }

    @Test("Bayer colours are interpolated from neighbouring sites of that colour")
    func bayerInterpolates() throws {
        let buffer = try mosaic(bits: 12, red: 0, green: 0, blue: 0)
        buffer[sample16: 2, y: 0] = 4095                                        // one red site
        let rgb = buffer.rgb8()
        #expect(rgb[(0 * 4 + 2) * 3] == 255, "the red site itself")
        #expect(rgb[(0 * 4 + 1) * 3] == 128, "a green site between red 0 and red 4095")
        #expect(rgb[(1 * 4 + 1) * 3] == 64, "a blue site with one of four red diagonals at 4095")
        #expect(rgb[(0 * 4 + 2) * 3 + 1] == 0 && rgb[(0 * 4 + 2) * 3 + 2] == 0)
    }
}

extension Array {
    /// The elements of each inner array, `count` times over.
    fileprivate func repeated<Element2>(_ count: Int) -> [Element2] where Element == [Element2] {
        (0..<count).flatMap { _ in self.flatMap { $0 } }
    }
}
