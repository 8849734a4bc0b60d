import CameraCore
@testable import CameraMovie
import Testing

@Suite("bgra8 to 4:2:0")
struct BGRAToYUV420Tests {
    /// A frame of pseudo-random pixels, every byte value likely.
    static func noise(width: Int, height: Int) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            let row = buffer.baseAddress(plane: 0).advanced(by: y * buffer.planes[0].bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                row[x] = UInt32(truncatingIfNeeded: state >> 32) | 0xFF00_0000
            }
        }
        return buffer
    }

    /// Pixel (`x`, `y`)'s R'G'B'.
    static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let bytes = buffer.baseAddress(plane: 0).advanced(by: y * buffer.planes[0].bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
        return (bytes[2], bytes[1], bytes[0])
    }

    @Test("every sample is BT.709.encode's: Y' per pixel, Cb and Cr of each 2×2 block's rounded mean, across the vector and tail columns",
          arguments: [(64, 4), (38, 6), (2, 2), (46, 5)])
    func matchesTheScalarEncode(width: Int, height: Int) throws {
        let buffer = try Self.noise(width: width, height: height)
        let chromaWidth = width / 2, chromaHeight = (height + 1) / 2
        var luma = [UInt8](repeating: 0, count: width * height)
        var blue = [UInt8](repeating: 0, count: chromaWidth * chromaHeight), red = blue
        luma.withUnsafeMutableBufferPointer { luma in
            blue.withUnsafeMutableBufferPointer { blue in
                red.withUnsafeMutableBufferPointer { red in
                    BGRAToYUV420(luma: luma.baseAddress!, lumaStride: width, blue: blue.baseAddress!, blueStride: chromaWidth,
                                 red: red.baseAddress!, redStride: chromaWidth).convert(buffer)
                }
            }
        }
        var lumaMismatches = 0, chromaMismatches = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = Self.pixel(buffer, x, y)
                if luma[y * width + x] != BT709.encode(red: p.red, green: p.green, blue: p.blue, range: .video).y { lumaMismatches += 1 }
            }
        }
        for cy in 0..<chromaHeight {
            for cx in 0..<chromaWidth {
                let block = [(2 * cx, 2 * cy), (2 * cx + 1, 2 * cy), (2 * cx, min(2 * cy + 1, height - 1)), (2 * cx + 1, min(2 * cy + 1, height - 1))]
                    .map { Self.pixel(buffer, $0.0, $0.1) }
                func mean(_ samples: [UInt8]) -> UInt8 { UInt8((samples.reduce(0) { $0 + Int($1) } + 2) / 4) }
                let expected = BT709.encode(red: mean(block.map { $0.red }), green: mean(block.map { $0.green }),
                                            blue: mean(block.map { $0.blue }), range: .video)
                if blue[cy * chromaWidth + cx] != expected.cb || red[cy * chromaWidth + cx] != expected.cr { chromaMismatches += 1 }
            }
        }
        #expect(lumaMismatches == 0)
        #expect(chromaMismatches == 0)
        #expect(luma.allSatisfy { (16...235).contains($0) })
        #expect(blue.allSatisfy { (16...240).contains($0) } && red.allSatisfy { (16...240).contains($0) })
    }

    @Test("the extremes of 8-bit R'G'B' land on video range's ends: black 16/128/128, white 235/128/128, pure blue's Cb and red's Cr 240")
    func extremes() throws {
        let buffer = try PixelBuffer(format: .bgra8, width: 16, height: 2)
        let colours: [UInt32] = [0xFF00_0000, 0xFFFF_FFFF, 0xFF00_00FF, 0xFFFF_0000]
        for y in 0..<2 {
            let row = buffer.baseAddress(plane: 0).advanced(by: y * buffer.planes[0].bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for x in 0..<16 { row[x] = colours[x / 4] }
        }
        var luma = [UInt8](repeating: 0, count: 32), blue = [UInt8](repeating: 0, count: 8), red = blue
        luma.withUnsafeMutableBufferPointer { luma in
            blue.withUnsafeMutableBufferPointer { blue in
                red.withUnsafeMutableBufferPointer { red in
                    BGRAToYUV420(luma: luma.baseAddress!, lumaStride: 16, blue: blue.baseAddress!, blueStride: 8,
                                 red: red.baseAddress!, redStride: 8).convert(buffer)
                }
            }
        }
        #expect(Array(luma[0..<4]) == [16, 16, 16, 16] && Array(luma[4..<8]) == [235, 235, 235, 235])
        #expect(Array(blue[0..<4]) == [128, 128, 128, 128] && Array(red[0..<4]) == [128, 128, 128, 128])
        #expect(blue[4] == 240 && red[6] == 240)
    }
}
