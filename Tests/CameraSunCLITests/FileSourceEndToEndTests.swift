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
            let times = try await videoFrameTimes(of: take.path)
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

    @Test("a file that is missing, not a video, a folder, without a video stream or text is an error naming it and what is wrong")
    func badFiles() async throws {
        try await withScratchDirectory { directory in
            let text = directory.appendingPathComponent("notes.mp4")
            try Data("not a movie\n".utf8).write(to: text)
            // A .txt of some length FFmpeg's tty demuxer reads as ANSI art: 640x400 "video".
            let notes = directory.appendingPathComponent("notes.txt")
            try Data((1...200).map { "line \($0) of some notes about the camera and its settings\n" }.joined().utf8).write(to: notes)
            let sound = directory.appendingPathComponent("tone.m4a").path
            _ = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=d=1", sound])
            let cases: [(path: String, says: String)] = [
                (directory.appendingPathComponent("missing.mp4").path, "No such file or directory"),
                (text.path, "Invalid data found when processing input"),
                (directory.path, "give the path of a video file"),
                (sound, "has no video stream"),
                (notes.path, "is a text file, not a video"),
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

    /// A 320x180 30 fps clip of `seconds` with a 440 Hz sine as its sound (44.1 kHz AAC, as a camera's might be).
    static func toneClip(seconds: Int, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("tone-440.mp4").path
        let made = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=320x180:r=30:d=\(seconds)",
                                                   "-f", "lavfi", "-i", "sine=f=440:d=\(seconds):sample_rate=44100", "-c:v", "libx264",
                                                   "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path])
        #expect(made.errors.isEmpty, "\(made.errors)")
        return path
    }

    /// The sound of `path` decoded by ffmpeg, mono at 48 kHz.
    static func sound(of path: String) async throws -> [Float] {
        let audio = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "f32le", "-ac", "1", "-ar", "48000", "-"]).output
        return audio.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The strongest frequency of `samples` (48 kHz) between 100 Hz and 2 kHz, to 5 Hz (Goertzel at each).
    static func peakFrequency(_ samples: ArraySlice<Float>) -> Int {
        stride(from: 100, through: 2_000, by: 5).max { power(samples, at: $0) < power(samples, at: $1) } ?? 0
    }

    private static func power(_ samples: ArraySlice<Float>, at frequency: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * Double(frequency) / 48_000)
        var (previous, beforeThat) = (0.0, 0.0)
        for sample in samples { (previous, beforeThat) = (Double(sample) + coefficient * previous - beforeThat, previous) }
        return previous * previous + beforeThat * beforeThat - coefficient * previous * beforeThat
    }

    @Test("a file's own sound is the take's: 440 Hz at the file's level in each second of a take looping the file, none with --audio none")
    func fileSoundRecorded() async throws {
        try await withScratchDirectory { directory in
            let clip = try await Self.toneClip(seconds: 2, in: directory)
            let library = directory.appendingPathComponent("Library").path
            let (_, asset) = try await RecordEndToEndTests.take(seconds: 5, into: library, flags: ["--source", "file:\(clip)", "--no-realtime"])
            #expect(asset["audio"] as? String == "aac", "\(asset)")
            let samples = try await Self.sound(of: try #require(asset["path"] as? String))
            #expect(abs(Double(samples.count) / 48_000 - 5) < 0.05, "\(samples.count) samples")
            for second in 0..<5 {
                let window = samples[(second * 48_000 + 4_800)..<(second * 48_000 + 43_200)]
                let peak = Self.peakFrequency(window)
                // lavfi's sine is at 1/8 of full scale: an RMS of −21 dBFS, −18 dBFS as AES17 reads it.
                let rms = (window.reduce(0) { $0 + Double($1) * Double($1) } / Double(window.count)).squareRoot()
                #expect(abs(peak - 440) <= 5 && abs(20 * log10(rms * 2.0.squareRoot()) + 18) < 1, "second \(second): \(peak) Hz, RMS \(rms)")
            }
            let (_, silent) = try await RecordEndToEndTests.take(seconds: 1, into: library,
                                                                  flags: ["--source", "file:\(clip)", "--no-realtime", "--audio", "none"])
            #expect(silent["audio"] == nil || silent["audio"] is NSNull, "\(silent)")
        }
    }

    @Test("a looping file's sound stays with its pictures: each click within a frame of its flash frame, in the first pass and the next")
    func fileSoundInStep() async throws {
        try await withScratchDirectory { directory in
            // A 3 s clip: a white frame and a click at 1 s and 2 s, a grey picture and a quiet tone between.
            let clip = directory.appendingPathComponent("marks.mp4").path
            let made = try await runTool("/usr/bin/ffmpeg", [
                "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                "color=c=gray:s=320x180:r=30:d=3,drawbox=c=white:t=fill:enable='lt(mod(t\\,1)\\,0.02)*gte(t\\,0.5)'",
                "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t\\,1)\\,0.002)*gte(t\\,0.5)\\,0.9\\,0.05*sin(2*PI*440*t))':s=48000:d=3",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip])
            #expect(made.errors.isEmpty, "\(made.errors)")
            let library = directory.appendingPathComponent("Library").path
            let (_, asset) = try await RecordEndToEndTests.take(seconds: 7, into: library, flags: ["--source", "file:\(clip)", "--no-realtime"])
            let marks = try await SyncMarkReading(path: try #require(asset["path"] as? String))
            #expect(marks.flashes.count == 4 && marks.clicks.count == 4, "flashes at \(marks.flashes), clicks at \(marks.clicks)")
            for (flash, offset) in marks.offsets {
                #expect(offset <= 1.0 / 30, "the click nearest the flash frame at \(flash) s is \(offset) s from it")
            }
        }
    }

    @Test("a file that fails mid-take (its frame size changes): the take is kept, stopReason sourceFailed, exit 1 naming the failure")
    func failingSource() async throws {
        try await withScratchDirectory { directory in
            var parts: [Data] = []
            for (size, offset) in [("320x180", "0"), ("160x90", "1")] {
                let part = directory.appendingPathComponent("\(size).ts").path
                _ = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=\(size):r=30:d=1", "-c:v", "libx264",
                                                    "-pix_fmt", "yuv420p", "-f", "mpegts", "-output_ts_offset", offset, part])
                parts.append(try Data(contentsOf: URL(fileURLWithPath: part)))
            }
            let clip = directory.appendingPathComponent("sizes.ts")
            try parts.reduce(Data(), +).write(to: clip)
            let library = directory.appendingPathComponent("Library").path
            let result = try await CameraSunBinary.run(["record", "--source", "file:\(clip.path)", "--no-realtime", "--library", library, "--json"],
                                                       timeout: 120)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("changes its frame size to 160x90") && result.stderr.contains("is saved up to there"), "\(result.stderr)")
            let asset = try #require(try result.jsonObject()["asset"] as? [String: Any], "\(result)")
            #expect(asset["stopReason"] as? String == "sourceFailed" && asset["frames"] as? Int == 30, "\(asset)")
            #expect(try await CameraSunBinary.run(["library", "verify", "--library", library]).exitCode == 0)
        }
    }
}
