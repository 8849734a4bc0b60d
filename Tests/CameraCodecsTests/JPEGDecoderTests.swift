import CameraCodecs
import CameraCore
import Testing

@Suite struct JPEGDecoderTests {
    let decoder: JPEGDecoder

    init() throws {
        decoder = try JPEGDecoder()
    }

    /// A 64×48 colour gradient as a 4:2:0 JPEG, and the buffer it was made from.
    private func gradientJPEG() throws -> (jpeg: [UInt8], source: PixelBuffer) {
        let source = try Frames.gradient(.bgra8, width: 64, height: 48)
        return (try JPEGEncoder().encode(source, quality: 95), source)
    }

    @Test("decodes into a buffer it is given, at that buffer's row stride, as decode(_:) does")
    func intoBuffer() throws {
        let (jpeg, source) = try gradientJPEG()
        let pool = try BufferPool(format: .bgra8, width: 64, height: 48, capacity: 1)
        let buffer = try pool.makeBuffer()
        try jpeg.withUnsafeBytes { try decoder.decode($0, into: buffer) }
        #expect(buffer.bytes(plane: 0) == (try decoder.decode(jpeg)).bytes(plane: 0))
        #expect(Frames.largestDifference(buffer.rgb8(), source.rgb8()) <= 6)
    }

    @Test("a truncated JPEG, an empty one and bytes that are no JPEG are malformed, naming their size",
          arguments: ["truncated", "empty", "not a JPEG"])
    func undecodable(damage: String) throws {
        let (jpeg, _) = try gradientJPEG()
        let bytes: [UInt8] = switch damage {
        case "truncated": Array(jpeg.prefix(jpeg.count / 2))
        case "empty": []
        default: [UInt8](repeating: 0x55, count: 300)
        }
        let buffer = try PixelBuffer(format: .bgra8, width: 64, height: 48)
        let error = try #require(throws: CodecError.self) { try bytes.withUnsafeBytes { try decoder.decode($0, into: buffer) } }
        #expect(error.kind == .malformed)
        #expect(error.description.hasPrefix("libjpeg-turbo cannot decode the \(bytes.count)-byte JPEG: "))
    }

    @Test("a buffer of another size or format is refused, saying what it must be")
    func wrongBuffer() throws {
        let (jpeg, _) = try gradientJPEG()
        let buffer = try PixelBuffer(format: .nv12(.full), width: 64, height: 48)
        let error = try #require(throws: CodecError.self) { try jpeg.withUnsafeBytes { try decoder.decode($0, into: buffer) } }
        #expect(error.kind == .unsupported)
        #expect(error.description == "a 64×48 JPEG cannot be decoded into a 64×48 nv12-full buffer — give it a bgra8 buffer of the image's size")
    }
}
