import CameraTestSupport
import Foundation
import Testing

/// `--source file:PATH` end to end: a take CameraSun recorded plays back through `meter` frame for
/// frame with the file's timestamps (ffprobe, a real peer, reads them), loops after its last frame,
/// and bad files are clear errors.
@Suite("file: sources end to end")
struct FileSourceEndToEndTests {
    /// A 2 s take of backlit-portrait at 320x180 into `library`: its path and frame count.
    static func recordedTake(into library: String) async throws -> (path: String, frames: Int) {
        let (_, asset) = try await RecordEndToEndTests.take(seconds: 2, into: library, flags: ["--no-realtime"])
        return (try #require(asset["path"] as? String), try #require(asset["frames"] as? Int))
    }

    /// `meter --source file:PATH --frames N --no-realtime --json`: each report's frame number and pts.
    static func meter(_ path: String, frames: Int) async throws -> [(frame: Int, pts: Double)] {
        let result = try await CameraSunBinary.run(["meter", "--source", "file:\(path)", "--frames", "\(frames)", "--no-realtime", "--json"],
                                                   timeout: 120)
        #expect(result.exitCode == 0, "\(result)")
        return try result.stdoutLines.map { line in
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            return (try #require(report["frame"] as? Int), try #require(report["pts"] as? Double))
        }
    }

    @Test("a recording plays back through meter with ffprobe's frame count and timestamps, then from its start again, the clock going on")
    func recordingPlaysBack() async throws {
        try await withScratchDirectory { directory in
            let take = try await Self.recordedTake(into: directory.appendingPathComponent("Library").path)
            let times = try videoFrameTimes(of: take.path)
            #expect(times.count == take.frames, "ffprobe reads \(times.count) frames of the take's \(take.frames)")
            let reports = try await Self.meter(take.path, frames: take.frames + 3)
            try #require(reports.count == take.frames + 3)
            #expect(reports.map(\.frame) == Array(0..<(take.frames + 3)))
            let played = reports.prefix(take.frames).map(\.pts)
            #expect(zip(played, times).allSatisfy { abs($0 - $1) < 1e-4 }, "played \(played.prefix(5))… of ffprobe's \(times.prefix(5))…")
            // The second pass starts one frame after the last one and keeps the file's spacing.
            let period = 1.0 / 30
            for (index, report) in reports.suffix(3).enumerated() {
                #expect(abs(report.pts - (times.last! + period * Double(index + 1))) < 1e-4, "\(report)")
            }
        }
    }

    @Test("--once: meter reports each frame of the file once and exits 0; record --once takes the file whole, ending with it")
    func playedOnce() async throws {
        try await withScratchDirectory { directory in
            let take = try await Self.recordedTake(into: directory.appendingPathComponent("Library").path)
            let metered = try await CameraSunBinary.run(["meter", "--source", "file:\(take.path)", "--once", "--no-realtime", "--json"],
                                                        timeout: 120)
            #expect(metered.exitCode == 0, "\(metered)")
            #expect(metered.stdoutLines.count == take.frames, "\(metered.stdoutLines.count) reports of \(take.frames) frames")

            let copies = directory.appendingPathComponent("Copies").path
            let recorded = try await CameraSunBinary.run(["record", "--source", "file:\(take.path)", "--once", "--library", copies, "--json"],
                                                         timeout: 120)
            #expect(recorded.exitCode == 0, "\(recorded)")
            let asset = try #require(try recorded.jsonObject()["asset"] as? [String: Any], "\(recorded)")
            #expect(asset["frames"] as? Int == take.frames && asset["stopReason"] as? String == "stopped", "\(asset)")
        }
    }

    @Test("--once without a file source is a usage error saying what it takes")
    func onceNeedsAFile() async throws {
        let result = try await CameraSunBinary.run(["meter", "--once", "--frames", "1"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--once") && result.stderr.contains("--source file:PATH"), "\(result)")
    }

    @Test("a file that is missing, not a video, a folder or without a video stream is an error naming it and what is wrong")
    func badFiles() async throws {
        try await withScratchDirectory { directory in
            let text = directory.appendingPathComponent("notes.mp4")
            try Data("not a movie\n".utf8).write(to: text)
            let sound = directory.appendingPathComponent("tone.m4a").path
            _ = try runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=d=1", sound])
            let cases: [(path: String, says: String)] = [
                (directory.appendingPathComponent("missing.mp4").path, "No such file or directory"),
                (text.path, "Invalid data found when processing input"),
                (directory.path, "give the path of a video file"),
                (sound, "has no video stream"),
            ]
            for (path, says) in cases {
                let result = try await CameraSunBinary.run(["meter", "--source", "file:\(path)", "--frames", "1"])
                #expect(result.exitCode == 1, "\(path): \(result)")
                #expect(result.stderr.contains("file:\(path)") && result.stderr.contains(says), "\(path): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("a photo from a file source lands in the library, its JPEG the video's size")
    func photoFromAFile() async throws {
        try await withScratchDirectory { directory in
            let take = try await Self.recordedTake(into: directory.appendingPathComponent("Takes").path)
            let library = directory.appendingPathComponent("Photos").path
            let result = try await CameraSunBinary.run(["photo", "--source", "file:\(take.path)", "--library", library, "--json"], timeout: 120)
            #expect(result.exitCode == 0, "\(result)")
            let listed = try await CameraSunBinary.run(["library", "list", "--library", library, "--json"])
            let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]])
            #expect(assets.count == 1 && assets.first?["kind"] as? String == "photo", "\(listed)")
            #expect(assets.first?["width"] as? Int == 320 && assets.first?["height"] as? Int == 180, "\(listed)")
        }
    }
}
