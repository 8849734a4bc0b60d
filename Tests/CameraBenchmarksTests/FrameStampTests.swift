@testable import CameraBenchmarks
import CameraCore
import Testing

@Suite("bench stream's frame stamp")
struct FrameStampTests {
    /// A bgra8 picture's grey (its green), as the stream's player decodes it to.
    static func gray(_ buffer: PixelBuffer) -> [UInt8] {
        var gray = [UInt8](repeating: 0, count: buffer.width * buffer.height)
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { gray[y * buffer.width + x] = buffer[plane: 0, x: x * 4 + 1, y: y] }
        }
        return gray
    }

    @Test("A number drawn into a mid-grey picture reads back the same; a picture without a stamp reads as none",
          arguments: [0, 1, 0x8000, 0x5A5A, 0xFFFF] as [UInt16])
    func roundTrip(number: UInt16) throws {
        let buffer = try PixelBuffer(format: .bgra8, width: FrameStamp.width + 10, height: FrameStamp.block + 4)
        buffer.withUnsafeMutableBytes(plane: 0) { _ = $0.initializeMemory(as: UInt8.self, repeating: 128) }
        #expect(Self.gray(buffer).withUnsafeBytes { FrameStamp.read($0, stride: buffer.width) } == nil)
        FrameStamp.draw(number, into: buffer)
        #expect(Self.gray(buffer).withUnsafeBytes { FrameStamp.read($0, stride: buffer.width) } == number)
    }

    @Test("Drawn into a raw frame, the blocks hold the white level or 0 on every site and read back as the number",
          arguments: [0x0001, 0xA5C3] as [UInt16])
    func rawFrame(number: UInt16) throws {
        let bits = 12
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: bits), width: FrameStamp.width + 6, height: FrameStamp.block + 2)
        for y in 0..<buffer.height { for x in 0..<buffer.width { buffer[sample16: x, y: y] = 1 << (bits - 1) } }
        FrameStamp.draw(number, into: buffer)
        let samples = (0..<FrameStamp.block).flatMap { y in (0..<FrameStamp.width).map { x in buffer[sample16: x, y: y] } }
        #expect(Set(samples) == Set<UInt16>([0, UInt16((1 << bits) - 1)]))
        #expect(buffer[sample16: FrameStamp.width, y: 0] == 1 << (bits - 1), "the picture beside the stamp is left as it was")
        var gray = [UInt8](repeating: 0, count: buffer.width * buffer.height)
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { gray[y * buffer.width + x] = UInt8(buffer[sample16: x, y: y] >> (bits - 8)) }
        }
        #expect(gray.withUnsafeBytes { FrameStamp.read($0, stride: buffer.width) } == number)
    }
}
