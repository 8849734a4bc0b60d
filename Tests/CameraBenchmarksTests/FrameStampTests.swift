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
}
