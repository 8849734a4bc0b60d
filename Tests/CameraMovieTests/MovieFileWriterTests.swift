import CameraCapture
import CameraCore
import CameraMovie
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

/// Recordings of the simulated camera, read back by the real peers: ffprobe counts the frames and
/// reads the stream, ffmpeg decodes every frame.
@Suite("Movie file: H.264 in fragmented MP4")
struct MovieFileWriterTests {
    /// `frames` frames of `scene` at 30 fps in `format` into `path`.
    static func record(_ scene: SimulatedScene, format pixelFormat: PixelFormat = .bgra8, frames: Int, to path: String) async throws
        -> MovieFileWriter.Summary {
        let camera = try recordingCamera(scene, pixelFormat)
        let writer = try MovieFileWriter(path: path, size: recordingSize, frameRate: 30)
        for _ in 0..<frames { try writer.append(try await camera.nextFrame()) }
        return try writer.finish()
    }

    @Test("90 frames of bgra8 and of nv12: ffprobe reads H.264 4:2:0 BT.709, 90 frames, 3 s; ffmpeg decodes it without an error",
          arguments: [PixelFormat.bgra8, .nv12(.video)])
    func ffprobeReadsTheRecording(format: PixelFormat) async throws {
        try await withTemporaryFile { path in
            let summary = try await Self.record(.backlitPortrait, format: format, frames: 90, to: path)
            #expect(summary == MovieFileWriter.Summary(frames: 90, duration: 3, encoder: "libx264"))
            let probe = try await FFprobe.streams(of: path)
            #expect(probe.codec == "h264")
            #expect(probe.pixelFormat == "yuv420p")
            #expect(probe.colorSpace == "bt709")
            #expect(probe.frames == 90)
            #expect(abs(probe.duration - 3) <= 1.0 / 30)
            #expect(try await FFprobe.decodeErrors(of: path) == "")
            let validation = try MovieValidation.check(path)
            // Keyframes at frames 0 and 1 (the first fragment, one frame), then a second apart: 31, 61.
            #expect(validation.frames == 90 && !validation.hasAudio && validation.lastGroupFrames == 29, "\(validation)")
            #expect(abs(validation.duration - 3) < 1e-6, "\(validation.duration)")
        }
    }

    @Test("The file is fragmented: a fragment (moof) at least every second, the index (moov) first and empty")
    func fragmentsOfAtMostOneSecond() async throws {
        try await withTemporaryFile { path in
            _ = try await Self.record(.grayCard, frames: 90, to: path)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let fragments = data.ranges(of: Data("moof".utf8)).count
            #expect(fragments >= 3, "\(fragments) fragments in 3 s")
            let moov = try #require(data.firstRange(of: Data("moov".utf8)))
            let firstFragment = try #require(data.firstRange(of: Data("moof".utf8)))
            #expect(moov.lowerBound < firstFragment.lowerBound)
        }
    }

    @Test("The first fragment is the first frame alone: on the disk, index and all, before the camera's first half second is")
    func theFirstFrameReachesTheDiskAtOnce() async throws {
        try await withTemporaryFile { path in
            let camera = try recordingCamera(.grayCard, .bgra8)
            let writer = try MovieFileWriter(path: path, size: recordingSize, frameRate: 30)
            for _ in 0..<15 { try writer.append(try await camera.nextFrame()) }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(writer.bytesWritten > 0 && data.firstRange(of: Data("moov".utf8)) != nil && data.firstRange(of: Data("moof".utf8)) != nil,
                    "\(writer.bytesWritten) bytes after 15 frames")
            _ = try writer.finish()
            #expect(try await FFprobe.decodeErrors(of: path) == "")
        }
    }

    @Test("Cut after its second fragment, as a kill would leave it, the file still decodes the frames before the cut")
    func aTruncatedFileKeepsItsFragments() async throws {
        try await withTemporaryFile { path in
            _ = try await Self.record(.grayCard, frames: 90, to: path)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let third = try #require(data.ranges(of: Data("moof".utf8)).dropFirst(2).first)
            try data.prefix(third.lowerBound - 4).write(to: URL(fileURLWithPath: path))
            let probe = try await FFprobe.streams(of: path)
            #expect(probe.frames >= 30 && probe.frames < 90, "\(probe.frames) frames left")
            #expect(try await FFprobe.decodeErrors(of: path) == "")
            let validation = try MovieValidation.check(path)
            #expect(validation.frames == probe.frames)
            #expect(validation.lastGroupFrames >= 1 && validation.lastGroupFrames <= 30, "\(validation)")
        }
    }

    @Test("Validation refuses what is not a movie, naming the file")
    func validationRefusesGarbage() async throws {
        try await withTemporaryFile { path in
            try Data("not a movie at all".utf8).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: MovieError.self) { _ = try MovieValidation.check(path) }
            #expect(error?.message.hasPrefix("opening the recording \(path) failed: ") == true, "\(String(describing: error))")
            #expect(error?.message.hasSuffix("— it is not a movie file CameraSun can read") == true)
        }
    }

    @Test("Bad input: a zero frame rate, an odd size, a folder that does not exist, a frame out of order — each named")
    func badInputIsAClearError() async throws {
        let size = recordingSize
        #expect(throws: MovieError("frame rate 0 — a recording needs at least 1 frame a second")) {
            _ = try MovieFileWriter(path: "/tmp/x.mp4", size: size, frameRate: 0)
        }
        let missing = "/nonexistent-\(UUID().uuidString)/movie.mp4"
        let error = #expect(throws: MovieError.self) { _ = try MovieFileWriter(path: missing, size: size, frameRate: 30) }
        #expect(error?.message.hasPrefix("creating \(missing) failed: No such file or directory") == true)
        let odd = #expect(throws: MovieError.self) {
            _ = try MovieFileWriter(path: "/tmp/odd-\(UUID().uuidString).mp4", size: PixelSize(width: 161, height: 91), frameRate: 30)
        }
        #expect(odd?.message.contains("161x91") == true)
        try await withTemporaryFile { path in
            let camera = try recordingCamera(.grayCard)
            let writer = try MovieFileWriter(path: path, size: size, frameRate: 30)
            let frame = try await camera.nextFrame()
            try writer.append(frame)
            let repeated = #expect(throws: MovieError.self) { try writer.append(frame) }
            #expect(repeated?.message.contains("is not after the frame before") == true)
        }
    }
}
