import CameraCore
import Testing

@Suite("PixelReader")
struct PixelReaderTests {
    /// A 4×4 buffer in `format` whose bytes in each plane count up from `start` (wrapping).
    private func counting(_ format: PixelFormat, from start: Int = 0) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: format, width: 4, height: 4)
        var next = start
        for (index, plane) in buffer.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.rowLength {
                    buffer[plane: index, x: x, y: y] = UInt8(truncatingIfNeeded: next)
                    next += 1
                }
            }
        }
        return buffer
    }

    @Test("bgra8 reads the red, green and blue bytes and their integer luma")
    func bgra() throws {
        let buffer = try counting(.bgra8, from: 10)
        let pixel = try #require(buffer.pixelReader()).pixel(x: 1, y: 2)
        // Pixel (1, 2) starts at byte 2 × 16 + 4 = 36: blue 46, green 47, red 48.
        #expect((pixel.red, pixel.green, pixel.blue) == (48, 47, 46))
        #expect(pixel.luma == BT709.luma8(red: 48, green: 47, blue: 46))
    }

    @Test("gray8 repeats its byte in every channel")
    func gray() throws {
        let pixel = try #require(try counting(.gray8).pixelReader()).pixel(x: 3, y: 1)
        #expect((pixel.red, pixel.green, pixel.blue, pixel.luma) == (7, 7, 7, 7))
    }

    @Test("an nv12 pixel takes the chroma pair of its 2×2 block", arguments: [YCbCrRange.video, .full])
    func nv12(range: YCbCrRange) throws {
        let buffer = try counting(.nv12(range), from: 100)
        let pixel = try #require(buffer.pixelReader()).pixel(x: 3, y: 3)
        // Luma (3, 3) is byte 15 of plane 0; the pair of block (1, 1) bytes 2, 3 of chroma row 1.
        let (luma, cb, cr): (UInt8, UInt8, UInt8) = (115, 100 + 16 + 6, 100 + 16 + 7)
        let rgb = BT709.decode(y: luma, cb: cb, cr: cr, range: range)
        #expect((pixel.red, pixel.green, pixel.blue) == (rgb.red, rgb.green, rgb.blue))
        #expect(pixel.luma == (range == .video ? BT709.fullRangeLuma(video: luma) : luma))
    }

    @Test("a yuyv422 pixel takes its own luma and its pair's chroma")
    func yuyv() throws {
        let buffer = try counting(.yuyv422)
        let pixel = try #require(buffer.pixelReader()).pixel(x: 1, y: 2)
        // Row 2 starts at byte 16: Y0 Cb Y1 Cr = 16 17 18 19.
        let rgb = BT709.decode(y: 18, cb: 17, cr: 19, range: .video)
        #expect((pixel.red, pixel.green, pixel.blue) == (rgb.red, rgb.green, rgb.blue))
        #expect(pixel.luma == BT709.fullRangeLuma(video: 18))
    }

    @Test("bayer16 has no pixel reader: it needs a demosaic")
    func bayer() throws {
        #expect(try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 4, height: 4).pixelReader() == nil)
    }

    @Test("video-range luma maps 16 to 0 and 235 to 255, clamped beyond", arguments: [
        (UInt8(0), UInt8(0)), (16, 0), (17, 1), (126, 128), (235, 255), (255, 255),
    ])
    func fullRangeLuma(video: UInt8, full: UInt8) {
        #expect(BT709.fullRangeLuma(video: video) == full)
    }
}
