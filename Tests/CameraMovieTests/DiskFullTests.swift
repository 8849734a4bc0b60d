import CameraTestSupport
import Foundation
import Testing

@testable import CameraMovie

/// A take the disk fills up: the recording stops as a saved file holding every whole fragment, and
/// a torn last fragment is cut off so the file decodes without an error.
@Suite("Movie recording: a full disk")
struct DiskFullTests {
    /// Records 100 frames at 160×90 into `folder` and finishes: a file of three or four fragments.
    static func finishedTake(in folder: URL) async throws -> String {
        let camera = try recordingCamera(.backlitPortrait)
        let recording = try MovieRecording(path: folder.appendingPathComponent("take.mp4").path, size: recordingSize, frameRate: 30,
                                           limits: try MovieRecording.Limits())
        for _ in 0..<100 { #expect(try recording.append(try await camera.nextFrame()) == nil) }
        return try recording.finish().path
    }

    @Test("A file torn inside its last fragment is cut back to the fragment before: it decodes clean, and cutting again keeps it")
    func tornFragmentIsCutOff() async throws {
        try await withScratchDirectory { folder in
            let path = try await Self.finishedTake(in: folder)
            let whole = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(whole - 200))
            try handle.close()
            #expect(try await FFprobe.decodeErrors(of: path) != "", "the torn file is not clean before it is cut")

            let cut = try CompleteFragments.trim(path)
            #expect(cut.cut > 0 && cut.kept + cut.cut == Int64(whole - 200), "\(cut)")
            #expect(try await FFprobe.decodeErrors(of: path) == "")
            let frames = try await FFprobe.streams(of: path).frames
            #expect(frames >= 60 && frames < 100, "\(frames) of 100 frames kept")
            #expect(try CompleteFragments.trim(path) == (cut.kept, 0))
        }
    }

    @Test("A header with no whole fragment after it keeps nothing")
    func noWholeFragment() throws {
        try withScratchDirectory { folder in
            let path = folder.appendingPathComponent("torn.mp4").path
            // ftyp (16 bytes), then a moof that claims 4096 bytes but stops after its header.
            let boxes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + [0, 0, 16, 0] + Array("moof".utf8)
            try Data(boxes).write(to: URL(fileURLWithPath: path))
            #expect(try CompleteFragments.trim(path) == (0, Int64(boxes.count)))
        }
    }
}

/// The same on a real full volume: a 1 MiB tmpfs filled until a take cannot grow.
@Suite(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root; DiskFullTests cut torn files without one"))
struct TmpfsDiskFullTests {
    @Test("The disk fills mid-take: the take ends as \"the disk filled up\", saved up to its last whole fragment, no partial file")
    func diskFillsMidTake() async throws {
        try await Tmpfs.with(bytes: 1 << 20) { volume in
            try Tmpfs.fill(volume, leaving: 120_000)
            let camera = try recordingCamera(.backlitPortrait)
            let path = volume.appendingPathComponent("take.mp4").path
            let recording = try MovieRecording(path: path, size: recordingSize, frameRate: 30, limits: try MovieRecording.Limits())
            var reason: MovieRecording.StopReason?
            var appended = 0
            while reason == nil, appended < 30 * 600 {
                reason = try recording.append(try await camera.nextFrame())
                appended += 1
            }
            #expect(reason == .diskFull)
            let saved = try recording.finish(reason: try #require(reason))
            #expect(saved.reason == .diskFull && saved.reason.sentence == "the disk filled up")
            #expect(saved.validation.frames >= 30 && saved.validation.frames < appended, "\(saved.validation.frames) of \(appended)")
            #expect(try await FFprobe.decodeErrors(of: saved.path) == "")
            #expect(try await FFprobe.streams(of: saved.path).frames == saved.validation.frames)
            #expect(try FileManager.default.contentsOfDirectory(atPath: volume.path).sorted() == ["filler", "take.mp4"])
        }
    }
}
