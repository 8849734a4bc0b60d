import CameraCapture
import CameraCore
import CameraMovie
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

/// Takes with limits: each ends as a saved, validated file with its reason, under its final name.
@Suite("Movie recording: limits, validation, the final name")
struct MovieRecordingTests {
    /// Records `scene` at 160×90, 30 fps, until a limit stops it (at most `frames` frames, then stopped by hand).
    static func take(_ limits: MovieRecording.Limits, frames: Int = 3000, in folder: URL) async throws -> MovieRecording.Saved {
        let camera = try recordingCamera(.backlitPortrait)
        let recording = try MovieRecording(path: folder.appendingPathComponent("take.mp4").path, size: recordingSize, frameRate: 30,
                                           limits: limits)
        for _ in 0..<frames {
            if let reason = try recording.append(try await camera.nextFrame()) { return try recording.finish(reason: reason) }
        }
        return try recording.finish()
    }

    @Test("--duration 2 stops at 2 s exactly: 60 frames, \"maximum duration reached\", validated, named, no partial file left")
    func maximumDuration() async throws {
        try await withScratchDirectory { folder in
            let saved = try await Self.take(try MovieRecording.Limits(maximumDuration: 2), in: folder)
            #expect(saved.reason == .maximumDuration)
            #expect(saved.reason == .maximumDuration && saved.reason.sentence == "maximum duration reached")
            #expect(saved.validation.frames == 60)
            #expect(abs(saved.validation.duration - 2) < 1e-6)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["take.mp4"])
            #expect(try await FFprobe.streams(of: saved.path).frames == 60)
        }
    }

    @Test("A size limit stops the take before the file passes it, and the file is whole")
    func maximumSize() async throws {
        try await withScratchDirectory { folder in
            let limit: Int64 = 60_000
            let saved = try await Self.take(try MovieRecording.Limits(maximumBytes: limit), in: folder)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int64)
            #expect(saved.reason == .maximumSize)
            #expect(size <= limit && size > limit / 2, "\(size) bytes")
            #expect(try await FFprobe.decodeErrors(of: saved.path) == "")
        }
    }

    @Test("While a take runs, its partial file already decodes all but the fragment being written, as a kill would leave it")
    func thePartialFileIsPlayableWhileRecording() async throws {
        try await withScratchDirectory { folder in
            let camera = try recordingCamera(.backlitPortrait)
            let path = folder.appendingPathComponent("take.mp4").path
            let recording = try MovieRecording(path: path, size: recordingSize, frameRate: 30, limits: try MovieRecording.Limits())
            for _ in 0..<100 { #expect(try recording.append(try await camera.nextFrame()) == nil) }
            let snapshot = folder.appendingPathComponent("snapshot.mp4").path
            try FileManager.default.copyItem(atPath: path + MovieRecording.partialSuffix, toPath: snapshot)
            let probe = try await FFprobe.streams(of: snapshot)
            #expect(probe.frames >= 60 && probe.frames < 100, "\(probe.frames) of 100 frames on the disk")
            #expect(try await FFprobe.decodeErrors(of: snapshot) == "")
            #expect(try recording.finish().validation.frames == 100)
        }
    }

    @Test("Stopped by hand: reason \"stopped\", every frame in the file")
    func stoppedByHand() async throws {
        try await withScratchDirectory { folder in
            let saved = try await Self.take(try MovieRecording.Limits(maximumDuration: 60), frames: 45, in: folder)
            #expect(saved.reason == .stopped && saved.validation.frames == 45)
        }
    }

    @Test("A minimum free space the volume does not have refuses to start, naming both figures; nothing is written")
    func minimumFreeSpace() async throws {
        try await withScratchDirectory { folder in
            let limits = try MovieRecording.Limits(minimumFreeBytes: Int64(1) << 60)
            let error = await #expect(throws: MovieError.self) { _ = try await Self.take(limits, in: folder) }
            #expect(error?.message.contains("under the minimum of \((Int64(1) << 60) >> 20) MB") == true, "\(String(describing: error))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test("Limits that make no sense are refused by name", arguments: [(-1.0, Int64(1), Int64(0)), (1, 0, 0), (1, 1, -1)])
    func badLimits(duration: Double, bytes: Int64, free: Int64) {
        #expect(throws: MovieError.self) { _ = try MovieRecording.Limits(maximumDuration: duration, maximumBytes: bytes, minimumFreeBytes: free) }
    }
}
