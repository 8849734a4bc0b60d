import CameraCore
import CameraMovie
import CameraTestSupport
import Foundation
import Testing

@Suite("VideoFileReader")
struct VideoFileReaderTests {
    /// Three frames of grey `level` (0…255) at 64x48 and 10 fps, made by ffmpeg in `codec` with `pixelFormat`.
    static func clip(level: Int, codec: String, pixelFormat: String, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("grey-\(level)-\(codec).mkv").path
        let colour = String(format: "0x%02X%02X%02X", level, level, level)
        let made = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):s=64x48:r=10:d=0.3",
                                                   "-c:v", codec, "-pix_fmt", pixelFormat, path])
        #expect(made.errors.isEmpty, "\(made.errors)")
        return path
    }

    /// Every frame's mean luma and time.
    static func frames(of path: String) throws -> [(luma: Double, time: Double)] {
        let reader = try VideoFileReader(path: path)
        let buffer = try PixelBuffer(format: .nv12(.video), width: reader.size.width, height: reader.size.height)
        var frames: [(Double, Double)] = []
        while let time = try reader.read(into: buffer) {
            let luma = buffer.withUnsafeBytes(plane: 0) { bytes in
                (0..<reader.size.height).flatMap { y in (0..<reader.size.width).map { Double(bytes[y * buffer.planes[0].bytesPerRow + $0]) } }
            }
            frames.append((luma.reduce(0, +) / Double(luma.count), time))
        }
        return frames
    }

    @Test("grey levels come out in video range whether the file is video range (H.264) or full range (MJPEG), with the file's times",
          arguments: [("libx264", "yuv420p"), ("mjpeg", "yuvj420p")])
    func videoRangeOut(codec: String, pixelFormat: String) async throws {
        try await withScratchDirectory { directory in
            for (level, expected) in [(0, 16.0), (255, 235.0), (128, 16 + 219 * 128 / 255.0)] {
                let frames = try Self.frames(of: try await Self.clip(level: level, codec: codec, pixelFormat: pixelFormat, in: directory))
                #expect(frames.count == 3, "\(codec) level \(level): \(frames)")
                #expect(frames.allSatisfy { abs($0.luma - expected) <= 2 }, "\(codec) level \(level): \(frames.map(\.luma)) for \(expected)")
                #expect(zip(frames.map(\.time), [0, 0.1, 0.2]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(frames.map(\.time))")
            }
        }
    }

    @Test("after the last frame, rewind plays the file again from its first frame")
    func rewind() async throws {
        try await withScratchDirectory { directory in
            let reader = try VideoFileReader(path: try await Self.clip(level: 100, codec: "libx264", pixelFormat: "yuv420p", in: directory))
            let buffer = try PixelBuffer(format: .nv12(.video), width: 64, height: 48)
            var times: [Double] = []
            while let time = try reader.read(into: buffer) { times.append(time) }
            try reader.rewind()
            while let time = try reader.read(into: buffer) { times.append(time) }
            #expect(times.count == 6 && abs(times[3]) < 1e-6, "\(times)")
        }
    }

    @Test("a buffer of another size or format is refused, naming both")
    func wrongBuffer() async throws {
        try await withScratchDirectory { directory in
            let reader = try VideoFileReader(path: try await Self.clip(level: 100, codec: "libx264", pixelFormat: "yuv420p", in: directory))
            let buffer = try PixelBuffer(format: .bgra8, width: 64, height: 48)
            let error = #expect(throws: MovieError.self) { _ = try reader.read(into: buffer) }
            #expect(error?.message.contains("64x48") == true && error?.message.contains("nv12") == true, "\(String(describing: error))")
        }
    }
}
