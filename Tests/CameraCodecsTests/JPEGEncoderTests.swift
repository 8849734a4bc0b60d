import CameraCodecs
import CameraCore
import Testing

@Suite struct JPEGEncoderTests {
    let encoder: JPEGEncoder
    let decoder: JPEGDecoder

    init() throws {
        encoder = try JPEGEncoder()
        decoder = try JPEGDecoder()
    }

    static let colours: [(red: UInt8, green: UInt8, blue: UInt8)] = [
        (0, 0, 0), (255, 255, 255), (128, 128, 128), (200, 40, 30), (30, 160, 60), (40, 60, 220), (250, 200, 20),
    ]

    @Test("a uniform bgra8 patch decodes to its colour", arguments: colours)
    func uniformBGRA(colour: (red: UInt8, green: UInt8, blue: UInt8)) throws {
        let buffer = try Frames.bgra8(width: 48, height: 32) { _, _ in colour }
        let decoded = try decoder.decode(encoder.encode(buffer, quality: 95))
        #expect(decoded.width == 48 && decoded.height == 32)
        #expect(Frames.largestDifference(decoded.rgb8(), buffer.rgb8()) <= 2)
    }

    @Test("a uniform nv12 patch decodes to the colour rgb8() gives it, in either range",
          arguments: [YCbCrRange.video, .full], colours)
    func uniformNV12(range: YCbCrRange, colour: (red: UInt8, green: UInt8, blue: UInt8)) throws {
        let buffer = try Frames.nv12(range, width: 48, height: 32) { _, _ in colour }
        let decoded = try decoder.decode(encoder.encode(buffer, quality: 95))
        #expect(decoded.width == 48 && decoded.height == 32)
        #expect(Frames.largestDifference(decoded.rgb8(), buffer.rgb8()) <= 3)
    }

    @Test("gradients survive in every fast-path format, with row padding (width 100, stride 448)",
          arguments: [PixelFormat.bgra8, .nv12(.video), .nv12(.full), .gray8])
    func gradient(format: PixelFormat) throws {
        let buffer = try Frames.gradient(format, width: 100, height: 60)
        #expect(buffer.planes[0].bytesPerRow > buffer.planes[0].rowLength)
        let decoded = try decoder.decode(encoder.encode(buffer, quality: 95))
        #expect(decoded.width == 100 && decoded.height == 60)
        #expect(Frames.meanDifference(decoded.rgb8(), buffer.rgb8()) < 2)
        #expect(Frames.largestDifference(decoded.rgb8(), buffer.rgb8()) <= 10)
    }

    /// The decoder interpolates chroma where `rgb8()` repeats it per 2×2 block, so nv12 is best
    /// checked against its own RGB image encoded through the bgra8 path: the two JPEGs differ only
    /// by rounding if the BT.709 → BT.601 conversion is right.
    @Test("an nv12 frame encodes as its rgb8() image does through the bgra8 path", arguments: [YCbCrRange.video, .full])
    func nv12MatchesItsRGB(range: YCbCrRange) throws {
        let nv12 = try Frames.gradient(.nv12(range), width: 320, height: 240)
        let rgb = nv12.rgb8()
        let bgra = try Frames.bgra8(width: 320, height: 240) { x, y in
            let pixel = (y * 320 + x) * 3
            return (rgb[pixel], rgb[pixel + 1], rgb[pixel + 2])
        }
        let fromNV12 = try decoder.decode(encoder.encode(nv12, quality: 100)).rgb8()
        let fromBGRA = try decoder.decode(encoder.encode(bgra, quality: 100)).rgb8()
        #expect(Frames.meanDifference(fromNV12, fromBGRA) < 1)
        #expect(Frames.largestDifference(fromNV12, fromBGRA) <= 8)
    }

    @Test("formats without a fast path (yuyv422, bayer16) encode through rgb8()",
          arguments: [PixelFormat.yuyv422, .bayer16(.rggb, significantBits: 12)])
    func slowPath(format: PixelFormat) throws {
        let buffer = try Frames.gradient(format, width: 64, height: 32)
        let decoded = try decoder.decode(encoder.encode(buffer, quality: 95))
        #expect(decoded.width == 64 && decoded.height == 32)
        #expect(Frames.meanDifference(decoded.rgb8(), buffer.rgb8()) < 2)
    }

    @Test("a quality outside 1…100 is an error that names the range", arguments: [0, 101, -5])
    func qualityOutOfRange(quality: Int) throws {
        let buffer = try Frames.bgra8(width: 16, height: 16) { _, _ in (1, 2, 3) }
        let error = #expect(throws: CodecError.self) { try encoder.encode(buffer, quality: quality) }
        #expect(error?.kind == .invalidSetting)
        #expect(error?.description == "JPEG quality \(quality) is outside the supported range 1…100 — choose a value in that range")
    }

    @Test("lower quality gives a smaller file of the same image")
    func qualityChangesSize() throws {
        let buffer = try Frames.gradient(.bgra8, width: 160, height: 120)
        #expect(try encoder.encode(buffer, quality: 20).count < encoder.encode(buffer, quality: 95).count)
    }

    @Test("the bare libjpeg-turbo peer writes the very bytes the encoder writes for bgra8")
    func barePeerMatches() throws {
        let buffer = try Frames.gradient(.bgra8, width: 100, height: 60)
        #expect(try encoder.bareTurboJPEGEncode(buffer, quality: 85) == encoder.encode(buffer, quality: 85))
    }

    @Test("the bare peer refuses nv12, naming the format it takes")
    func barePeerRefusesNV12() throws {
        let error = #expect(throws: CodecError.self) {
            try encoder.bareTurboJPEGEncode(Frames.gradient(.nv12(.video), width: 16, height: 16), quality: 85)
        }
        #expect(error?.kind == .unsupported)
        #expect(error?.description.contains("bgra8") == true)
    }

    @Test("one encoder serves images of growing and shrinking sizes in turn")
    func reuseAcrossSizes() throws {
        for (index, (width, height)) in [(32, 16), (320, 240), (16, 8), (640, 480)].enumerated() {
            let colour = Self.colours[index + 3]
            let buffer = try Frames.nv12(.full, width: width, height: height) { _, _ in colour }
            let decoded = try decoder.decode(encoder.encode(buffer, quality: 90))
            #expect(decoded.width == width && decoded.height == height)
            #expect(Frames.largestDifference(decoded.rgb8(), buffer.rgb8()) <= 3)
        }
    }

    @Test("a thumbnail fits 160×120, keeps the aspect ratio and the picture",
          arguments: [(PixelFormat.bgra8, 640, 360, 160, 90), (.nv12(.video), 640, 480, 160, 120),
                      (.nv12(.full), 300, 500, 72, 120), (.gray8, 100, 50, 100, 50), (.yuyv422, 320, 240, 160, 120)])
    func thumbnail(format: PixelFormat, width: Int, height: Int, thumbnailWidth: Int, thumbnailHeight: Int) throws {
        let buffer = try Frames.gradient(format, width: width, height: height)
        let thumbnail = try decoder.decode(encoder.encodedThumbnail(of: buffer))
        #expect(thumbnail.width == thumbnailWidth && thumbnail.height == thumbnailHeight)
        let source = buffer.rgb8(), small = thumbnail.rgb8()
        for (x, y) in [(0, 0), (thumbnailWidth - 1, thumbnailHeight / 2), (thumbnailWidth / 2, thumbnailHeight - 1)] {
            let sourceX = (x * width + width / 2) / thumbnailWidth, sourceY = (y * height + height / 2) / thumbnailHeight
            let expected = source[(sourceY * width + sourceX) * 3]
            #expect(abs(Int(small[(y * thumbnailWidth + x) * 3]) - Int(expected)) <= 12, "red at (\(x), \(y))")
        }
    }

    @Test("thumbnail bounds below 2×2 are an error")
    func thumbnailBounds() throws {
        let buffer = try Frames.gradient(.bgra8, width: 64, height: 64)
        let error = #expect(throws: CodecError.self) { try encoder.encodedThumbnail(of: buffer, fitting: PixelSize(width: 1, height: 1)) }
        #expect(error?.kind == .invalidSetting)
    }

    @Test("garbage is a malformed-JPEG error, not a crash")
    func decodeGarbage() throws {
        let error = #expect(throws: CodecError.self) { try decoder.decode([0xFF, 0xD8, 1, 2, 3]) }
        #expect(error?.kind == .malformed)
    }
}
