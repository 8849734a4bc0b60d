import CameraCore
import Testing

/// A `width`×`height` buffer in `format` whose pixel (x, y) has the samples `fill(x, y)` gives:
/// bgra8 (b, g, r, a); gray8 (y); nv12 and yuyv422 (y, cb, cr), chroma taken from even pixels;
/// bayer16 (r, g, b) as 16-bit words, each site keeping its own colour.
private func makeBuffer(_ format: PixelFormat, width: Int, height: Int, _ fill: (Int, Int) -> [Int]) throws -> PixelBuffer {
    let buffer = try PixelBuffer(format: format, width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let samples = fill(x, y).map { UInt8(truncatingIfNeeded: $0) }
            switch format {
            case .bgra8:
                for channel in 0..<4 { buffer[plane: 0, x: x * 4 + channel, y: y] = samples[channel] }
            case .gray8:
                buffer[plane: 0, x: x, y: y] = samples[0]
            case .nv12:
                buffer[plane: 0, x: x, y: y] = samples[0]
                if x.isMultiple(of: 2), y.isMultiple(of: 2) {
                    buffer[plane: 1, x: x, y: y / 2] = samples[1]
                    buffer[plane: 1, x: x + 1, y: y / 2] = samples[2]
                }
            case .yuyv422:
                buffer[plane: 0, x: x * 2, y: y] = samples[0]
                if x.isMultiple(of: 2) {
                    buffer[plane: 0, x: x * 2 + 1, y: y] = samples[1]
                    buffer[plane: 0, x: x * 2 + 3, y: y] = samples[2]
                }
            case .bayer16:
                let words = fill(x, y)
                buffer[sample16: x, y: y] = UInt16(words[x % 2 + y % 2])
            }
        }
    }
    return buffer
}

/// The destination's pixels as (b, g, r, a).
private func pixels(_ buffer: PixelBuffer) -> [[UInt8]] {
    let bytes = buffer.bytes(plane: 0)
    return stride(from: 0, to: bytes.count, by: 4).map { Array(bytes[$0..<($0 + 4)]) }
}

private func scaled(_ source: PixelBuffer, to width: Int, _ height: Int) throws -> PixelBuffer {
    let pool = try BufferPool(format: .bgra8, width: width, height: height, capacity: 1)
    let destination = try pool.makeBuffer()
    PreviewScaler.scale(source, into: destination)
    return destination
}

@Suite("PreviewScaler")
struct PreviewScalerTests {
    @Test("fittedSize keeps the aspect ratio within the bound, never upscales, and is even", arguments: [
        (PixelSize(width: 1920, height: 1080), PixelSize(width: 960, height: 540)),
        (PixelSize(width: 640, height: 480), PixelSize(width: 640, height: 480)),
        (PixelSize(width: 4000, height: 3000), PixelSize(width: 720, height: 540)),
        (PixelSize(width: 1080, height: 1920), PixelSize(width: 304, height: 540)),
        (PixelSize(width: 3840, height: 1080), PixelSize(width: 960, height: 270)),
        (PixelSize(width: 961, height: 541), PixelSize(width: 958, height: 540)),
        (PixelSize(width: 1, height: 1), PixelSize(width: 2, height: 2)),
    ])
    func fittedSize(source: PixelSize, expected: PixelSize) {
        #expect(PreviewScaler.fittedSize(source, within: PixelSize(width: 960, height: 540)) == expected)
    }

    @Test("A uniform colour stays the same at any scale", arguments: [(8, 6), (5, 3), (48, 36), (2, 2)])
    func uniformColor(width: Int, height: Int) throws {
        let source = try makeBuffer(.bgra8, width: 48, height: 36) { _, _ in [10, 200, 90, 0] }
        #expect(pixels(try scaled(source, to: width, height)).allSatisfy { $0 == [10, 200, 90, 255] })
    }

    @Test("A one-pixel checkerboard halves to uniform grey")
    func checkerAveragesToGray() throws {
        let source = try makeBuffer(.bgra8, width: 16, height: 8) { x, y in
            (x + y).isMultiple(of: 2) ? [0, 0, 0, 255] : [255, 255, 255, 255]
        }
        #expect(pixels(try scaled(source, to: 8, 4)).allSatisfy { $0 == [128, 128, 128, 255] })
        #expect(pixels(try scaled(try makeBuffer(.bgra8, width: 2, height: 2) { x, y in
            (x + y).isMultiple(of: 2) ? [0, 0, 0, 255] : [255, 255, 255, 255]
        }, to: 1, 1)) == [[128, 128, 128, 255]])
    }

    @Test("Each destination pixel is the area-weighted mean of the source pixels it covers")
    func fractionalCoverage() throws {
        // Columns 0, 1, 2 of value 0, 90, 180 into 2 pixels: each covers 1.5 source columns.
        let source = try makeBuffer(.gray8, width: 3, height: 1) { x, _ in [x * 90] }
        // (0 + 90 / 2) / 1.5 = 30 and (90 / 2 + 180) / 1.5 = 150.
        #expect(pixels(try scaled(source, to: 2, 1)) == [[30, 30, 30, 255], [150, 150, 150, 255]])
    }

    @Test("bgra8 at a fraction (the viewfinder's 1280 → 960 is 4 : 3) gives each channel as that channel alone does in gray8",
          arguments: [(16, 12, 12, 9), (40, 30, 30, 22), (30, 20, 14, 10)])
    func bgraMatchesEachChannelAlone(width: Int, height: Int, toWidth: Int, toHeight: Int) throws {
        let value = { (x: Int, y: Int, channel: Int) in (x * (7 + channel) + y * 13 + x * y * channel) % 256 }
        let source = try makeBuffer(.bgra8, width: width, height: height) { x, y in [value(x, y, 0), value(x, y, 1), value(x, y, 2), 255] }
        let result = pixels(try scaled(source, to: toWidth, toHeight))
        for channel in 0..<3 {
            let alone = pixels(try scaled(try makeBuffer(.gray8, width: width, height: height) { x, y in [value(x, y, channel)] }, to: toWidth, toHeight))
            #expect(result.map { $0[channel] } == alone.map { $0[0] }, "channel \(channel)")
        }
        #expect(result.allSatisfy { $0[3] == 255 })
    }

    @Test("Halving a varied bgra8 image gives each 2×2 block's mean, rounded half up, as the box filter's exact halves do",
          arguments: [(64, 32), (60, 10)])
    func matchesBlockMeans(width: Int, height: Int) throws {
        let source = try makeBuffer(.bgra8, width: width, height: height) { x, y in
            [(x * 7 + y * 13) % 256, (x * y) % 256, (x ^ y) * 4 % 256, 255]
        }
        let rgb = source.rgb8()
        let result = pixels(try scaled(source, to: width / 2, height / 2))
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                for (channel, rgbIndex) in [(0, 2), (1, 1), (2, 0)] {
                    let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) { sum, offset in
                        sum + Int(rgb[((2 * y + offset.1) * width + 2 * x + offset.0) * 3 + rgbIndex])
                    }
                    #expect(Int(result[y * width / 2 + x][channel]) == (sum + 2) / 4, "(\(x), \(y)) channel \(channel)")
                }
                #expect(result[y * width / 2 + x][3] == 255)
            }
        }
    }

    @Test("Halving a varied nv12 image gives each 2×2 block's Y' mean, rounded half up, with the chroma sample it shares",
          arguments: [PixelFormat.nv12(.video), .nv12(.full)])
    func halvesNV12(format: PixelFormat) throws {
        let range: YCbCrRange = if case .nv12(let range) = format { range } else { .video }
        let (width, height) = (64, 20)
        let fill = { (x: Int, y: Int) in [(x * 7 + y * 13) % 220 + 16, (x * 3 + y * 5) % 200 + 28, (x ^ y) * 4 % 200 + 28] }
        let source = try makeBuffer(format, width: width, height: height, fill)
        let result = pixels(try scaled(source, to: width / 2, height / 2))
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                let luma = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) { $0 + fill(2 * x + $1.0, 2 * y + $1.1)[0] }
                let chroma = fill(2 * x, 2 * y)
                let expected = BT709.decode(y: UInt8((luma + 2) / 4), cb: UInt8(chroma[1]), cr: UInt8(chroma[2]), range: range)
                #expect(result[y * width / 2 + x] == [expected.blue, expected.green, expected.red, 255], "(\(x), \(y))")
            }
        }
    }

    @Test("Y'CbCr colours convert with BT.709 within ±2",
          arguments: [PixelFormat.nv12(.video), .nv12(.full), .yuyv422],
                     [[128, 128, 128], [255, 0, 0], [30, 160, 220], [250, 250, 240], [0, 0, 0]])
    func yCbCrColors(format: PixelFormat, rgb: [Int]) throws {
        let range: YCbCrRange = if case .nv12(let range) = format { range } else { .video }
        let encoded = BT709.encode(red: UInt8(rgb[0]), green: UInt8(rgb[1]), blue: UInt8(rgb[2]), range: range)
        let source = try makeBuffer(format, width: 32, height: 18) { _, _ in [Int(encoded.y), Int(encoded.cb), Int(encoded.cr)] }
        for pixel in pixels(try scaled(source, to: 10, 6)) {
            #expect(zip([pixel[2], pixel[1], pixel[0]], rgb).allSatisfy { abs(Int($0) - $1) <= 2 }, "\(pixel)")
            #expect(pixel[3] == 255)
        }
    }

    @Test("Video-range nv12 grey (Y' 128) becomes RGB 130")
    func nv12Grey() throws {
        let source = try makeBuffer(.nv12(.video), width: 16, height: 16) { _, _ in [128, 128, 128] }
        // (128 − 16) × 255 / 219 = 130.4.
        #expect(pixels(try scaled(source, to: 4, 4)).allSatisfy { $0 == [130, 130, 130, 255] })
    }

    @Test("gray8 fills all three channels")
    func gray() throws {
        let source = try makeBuffer(.gray8, width: 10, height: 10) { _, _ in [77] }
        #expect(pixels(try scaled(source, to: 4, 4)).allSatisfy { $0 == [77, 77, 77, 255] })
    }

    @Test("bayer16 takes each cell's red, mean green and blue, scaled to 8 bits")
    func bayer() throws {
        // 12-bit red 4095, greens 2000 and 2096 (mean 2048 → 127.5), blue 0.
        let source = try makeBuffer(.bayer16(.rggb, significantBits: 12), width: 16, height: 8) { _, y in
            [4095, y.isMultiple(of: 2) ? 2000 : 2096, 0]
        }
        #expect(pixels(try scaled(source, to: 4, 2)).allSatisfy { $0 == [0, 128, 255, 255] })
    }
}
