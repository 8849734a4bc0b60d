import CameraCore
import CameraTestSupport
import Foundation
@testable import CameraBenchmarks
import Testing

@Suite("Bench peers: memory read and OpenCV")
struct BenchPeerTests {
    /// `count` bytes that cover every value and do not line up with the vector widths.
    private static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 8 &+ 11) }
    }

    /// A `width`×`height` frame whose pixels left of `split` are `left` and the rest `right`
    /// (bgra8: B = G = R = value, A = 255; nv12: Y = value, CbCr = 128).
    private static func frame(_ format: PixelFormat, width: Int = 64, height: Int = 48, split: Int? = nil,
                              left: UInt8, right: UInt8) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: format, width: width, height: height)
        let split = split ?? width
        for (index, plane) in buffer.planes.enumerated() {
            buffer.withUnsafeMutableBytes(plane: index) { raw in
                for y in 0..<plane.height {
                    for x in 0..<plane.rowLength {
                        let offset = y * plane.bytesPerRow + x
                        switch (format, index) {
                        case (.bgra8, _): raw[offset] = x % 4 == 3 ? 255 : (x / 4 < split ? left : right)
                        case (_, 0): raw[offset] = x < split ? left : right
                        default: raw[offset] = 128
                        }
                    }
                }
            }
        }
        return buffer
    }

    @Test("The memory-read sum equals a plain sum, across the vector widths and the tail",
          arguments: [0, 1, 31, 32, 33, 1000, 4096 + 7])
    func memoryReadSumMatchesPlainSum(count: Int) {
        let bytes = Self.bytes(count)
        #expect(MemoryReadPeer.sum(bytes) == bytes.reduce(0) { $0 + UInt64($1) })
    }

    @Test("The memory-read sum of all-255 bytes does not wrap")
    func memoryReadSumOfSaturatedBytes() {
        let bytes = [UInt8](repeating: 255, count: 1 << 20)
        #expect(MemoryReadPeer.sum(bytes) == 255 << 20)
    }

    @Test("Measuring frames reads every plane of each and reports a positive time")
    func memoryReadMeasuresEveryPlane() async throws {
        let first = try Self.frame(.nv12(.video), width: 130, height: 20, left: 200, right: 200)
        let second = try Self.frame(.nv12(.video), width: 130, height: 20, left: 10, right: 10)
        func plainSum(_ buffer: PixelBuffer) -> UInt64 {
            buffer.planes.indices.reduce(UInt64(0)) { total, index in
                buffer.withUnsafeBytes(plane: index) { raw in raw.reduce(total) { $0 + UInt64($1) } }
            }
        }
        let result = await MemoryReadPeer.measure([first, second], runs: 3)   // reads first, second, first
        #expect(result.lastSum == plainSum(first))
        #expect(plainSum(first) != plainSum(second))
        #expect(result.milliseconds > 0)
    }

    @Test("OpenCV on a uniform grey bgra8 frame: mean 128, nothing clipped or crushed")
    func openCVUniformGray() async throws {
        let frame = try Self.frame(.bgra8, left: 128, right: 128)
        let result = try await onOwnThread { try OpenCVPeer(runs: 3).measure(frame) }
        #expect(result.mean == 128)
        #expect(result.histogramTotal == 64 * 48)
        #expect(result.clippedFraction == 0)
        #expect(result.crushedFraction == 0)
        #expect(result.milliseconds > 0)
    }

    @Test("OpenCV on a half-black, half-white frame: mean 127.5, half clipped, half crushed",
          arguments: [PixelFormat.bgra8, .nv12(.video)])
    func openCVHalfBlackHalfWhite(format: PixelFormat) async throws {
        let frame = try Self.frame(format, split: 32, left: 0, right: 255)
        let result = try await onOwnThread { try OpenCVPeer(runs: 3).measure(frame) }
        #expect(result.mean == 127.5)
        #expect(result.histogramTotal == 64 * 48)
        #expect(result.clippedFraction == 0.5)
        #expect(result.crushedFraction == 0.5)
    }

    @Test("OpenCV uses Rec. 709 weights, not BT.601: pure green reads 0.7152 × 255")
    func openCVUsesRec709() async throws {
        let buffer = try PixelBuffer(format: .bgra8, width: 16, height: 12)
        buffer.withUnsafeMutableBytes(plane: 0) { raw in
            for offset in stride(from: 0, to: raw.count, by: 4) {
                raw[offset + 1] = 255
                raw[offset + 3] = 255
            }
        }
        let result = try await onOwnThread { try OpenCVPeer(runs: 1).measure(buffer) }
        #expect(result.mean == 182)  // round(0.7152 × 255 = 182.4); BT.601 would give 150
    }

    @Test("A missing interpreter, or one without cv2, is reported as the peer being unavailable")
    func openCVUnavailable() throws {
        try withScratchDirectory { folder in
            let frame = try Self.frame(.bgra8, width: 8, height: 8, left: 128, right: 128)
            for python in [try StandInPython.withoutSitePackages(in: folder), StandInPython.missing(in: folder)] {
                let error = #expect(throws: BenchmarkError.self) { try OpenCVPeer(runs: 1, python: python).measure(frame) }
                #expect(error == BenchmarkError("OpenCV peer unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)"))
            }
        }
    }

    @Test("OpenCV refuses a format it has no analysis for, saying which to use")
    func openCVRefusesOtherFormats() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 8, height: 8)
        let error = #expect(throws: BenchmarkError.self) { try OpenCVPeer(runs: 1).measure(buffer) }
        #expect(error?.message.contains("use bgra8 or nv12") == true)
    }
}
