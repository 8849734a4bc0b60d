import CameraTestSupport
import Foundation
import Testing

/// `camerasun record` end to end: takes into a library, read back by ffprobe (a real peer), ended
/// by a limit, by Ctrl-C, and cut off by `kill -9` and recovered by `library repair`.
@Suite("camerasun record end to end")
struct RecordEndToEndTests {
    static let small = ["--width", "320", "--height", "180"]

    /// What ffprobe says of a recording's streams: codec name → (frames, duration in seconds).
    static func streams(of path: String) throws -> [String: (frames: Int, duration: Double)] {
        let result = try runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                      "stream=codec_name,nb_read_frames,duration", "-of", "json", path])
        let parsed = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        let object = try #require(parsed, "ffprobe: \(result.errors)")
        var streams: [String: (Int, Double)] = [:]
        for stream in object["streams"] as? [[String: Any]] ?? [] {
            guard let codec = stream["codec_name"] as? String else { continue }
            streams[codec] = (Int(stream["nb_read_frames"] as? String ?? "") ?? 0, Double(stream["duration"] as? String ?? "") ?? 0)
        }
        return streams
    }

    /// The takes still being written in `library` (`*.mp4.partial`) and their sizes.
    static func partialFiles(in library: URL) -> [(path: String, size: Int)] {
        let files = FileManager.default.enumerator(at: library, includingPropertiesForKeys: [.fileSizeKey])?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.path.hasSuffix(".mp4.partial") }.map { url in
            (url.path, (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }

    /// `record --duration SECONDS --json` into `library`: the command's result and its asset object.
    static func take(seconds: Int, into library: String) async throws -> (result: CommandResult, asset: [String: Any]) {
        let result = try await CameraSunBinary.runOffPool(["record", "--duration", "\(seconds)", "--library", library, "--json"] + small,
                                                          timeout: 120)
        #expect(result.exitCode == 0, "\(result)")
        return (result, try #require(try result.jsonObject()["asset"] as? [String: Any], "\(result)"))
    }

    /// Waits until the take being written in `library` has its first fragment (a second of it) on the disk.
    static func firstFragmentWritten(in library: URL) async throws -> Bool {
        try await eventually(timeout: .seconds(60)) { partialFiles(in: library).first.map { $0.size > 20_000 } ?? false }
    }

    @Test("--duration 2: stopped by the limit at 2 s, H.264 + AAC in the library, ffprobe's frame count the take's, verify clean")
    func durationLimit() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            let (result, asset) = try await Self.take(seconds: 2, into: library)
            #expect(result.stderr.isEmpty, "FFmpeg's own log stays off the terminal: \(result.stderr)")
            #expect(asset["stopReason"] as? String == "maximumDuration")
            #expect(asset["video"] as? String == "h264" && asset["audio"] as? String == "aac")
            #expect(asset["recovered"] as? Bool == false)
            let path = try #require(asset["path"] as? String)
            let frames = try #require(asset["frames"] as? Int)
            let streams = try Self.streams(of: path)
            #expect(streams["h264"]?.frames == frames, "\(streams)")
            #expect(abs((asset["duration"] as? Double ?? 0) - 2) <= 1.0 / 30 + 1e-6, "\(asset)")
            let audio = try #require(streams["aac"])
            #expect(abs(audio.duration - 2) < 0.05, "\(streams)")
            #expect(try runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)

            let listed = try await CameraSunBinary.runOffPool(["library", "list", "--library", library, "--json"])
            let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]])
            #expect(assets.count == 1 && assets.first?["kind"] as? String == "movie", "\(listed)")
            // Its thumbnail: a JPEG of the take, 320x180 (the frame's own size here, never enlarged).
            let thumbnail = try #require((assets.first?["movie"] as? [String: Any])?["thumbnailPath"] as? String, "\(listed)")
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: library).appendingPathComponent(thumbnail))
            #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
            let probe = try runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                         URL(fileURLWithPath: library).appendingPathComponent(thumbnail).path])
            #expect(String(decoding: probe.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "320,180")
            #expect(try await CameraSunBinary.runOffPool(["library", "verify", "--library", library]).exitCode == 0)
        }
    }

    /// The start time ffprobe gives the first stream of `kind` (video or audio), in seconds.
    static func startTime(of path: String, _ kind: String) throws -> Double {
        let result = try runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", kind == "video" ? "v:0" : "a:0",
                                                      "-show_entries", "stream=start_time", "-of", "csv=p=0", path])
        return try #require(Double(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("A/V sync: each click of the simulated microphone is within one frame of the simulated camera's flash frame")
    func avSync() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            let path = try #require(try await Self.take(seconds: 3, into: library).asset["path"] as? String)
            // Each decoded frame's mean level, shrunk to 32x18 grey, every frame once (passthrough:
            // no frame repeated to fill a constant rate); the marked frames are lit a stop brighter.
            let video = try runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough",
                                                        "-vf", "scale=32:18", "-pix_fmt", "gray", "-f", "rawvideo", "-"]).output
            let pixels = 32 * 18
            let levels = stride(from: 0, to: video.count / pixels * pixels, by: pixels).map { start in
                Double(video[start..<start + pixels].reduce(0) { $0 + Int($1) }) / Double(pixels)
            }
            // Each frame's own time from the file: a frame the encoder could not keep up with is missing,
            // so a frame's index is not its time.
            let times = String(decoding: try runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                          "frame=pts_time", "-of", "csv=p=0", path]).output, as: UTF8.self)
                .split(whereSeparator: \.isNewline).compactMap { Double($0.split(separator: ",").first ?? "") }
            try #require(times.count == levels.count, "\(times.count) frame times for \(levels.count) frames")
            // The tone curve squeezes the stop into a few levels of a bright picture: a flash frame
            // stands above both its neighbours, where the AE's own moves are gradual.
            let flashes = levels.indices.dropFirst().dropLast().filter { levels[$0] - max(levels[$0 - 1], levels[$0 + 1]) > 5 }
                .map { times[$0] }
            // The decoded sound, with the time of its first sample; a click is full scale, the tone a tenth of it.
            let audio = try runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "f32le", "-ac", "1", "-ar", "48000", "-"]).output
            let samples = audio.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let audioStart = try Self.startTime(of: path, "audio")
            var clicks: [Double] = []
            for (index, sample) in samples.enumerated() where abs(sample) > 0.5 {
                let time = audioStart + Double(index) / 48_000
                if clicks.last.map({ time - $0 > 0.5 }) ?? true { clicks.append(time) }
            }
            // A flash frame dropped on a loaded machine leaves its click unpaired; each flash found has its click.
            #expect(clicks.count == 2 && !flashes.isEmpty, "flashes at \(flashes), clicks at \(clicks)")
            for flash in flashes {
                let click = clicks.min { abs($0 - flash) < abs($1 - flash) } ?? .infinity
                #expect(abs(click - flash) <= 1.0 / 30, "click at \(click) s, flash frame at \(flash) s")
            }
        }
    }

    @Test("Ctrl-C and SIGTERM end the take cleanly: exit 0, the signal's reason, a whole file in the library",
          arguments: [(SIGINT, "interrupted"), (SIGTERM, "signal")])
    func signalled(signal: Int32, reason: String) async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library")
            let output = directory.appendingPathComponent("stdout")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = try CameraSunBinary.launch(["record", "--library", library.path, "--json"] + Self.small,
                                                     standardOutput: FileHandle(forWritingTo: output))
            #expect(try await Self.firstFragmentWritten(in: library), "the take never reached the disk")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let printed = try Data(contentsOf: output)
            let object = try JSONSerialization.jsonObject(with: printed) as? [String: Any]
            let asset = try #require(object?["asset"] as? [String: Any], "stdout: \(String(decoding: printed, as: UTF8.self))")
            #expect(asset["stopReason"] as? String == reason)
            let path = try #require(asset["path"] as? String)
            #expect(try Self.streams(of: path)["h264"]?.frames == asset["frames"] as? Int)
            #expect(Self.partialFiles(in: library).isEmpty)
        }
    }

    @Test("kill -9 mid-take: verify finds the unfinished recording, repair catalogues it as recovered and it decodes")
    func killedAndRecovered() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library")
            let process = try CameraSunBinary.launch(["record", "--library", library.path] + Self.small)
            #expect(try await Self.firstFragmentWritten(in: library), "the take never reached the disk")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let verify = try await CameraSunBinary.runOffPool(["library", "verify", "--library", library.path, "--json"])
            #expect(verify.exitCode == 1, "\(verify)")
            #expect(verify.stdout.contains("unfinishedRecording"), "\(verify)")
            let repair = try await CameraSunBinary.runOffPool(["library", "repair", "--library", library.path, "--json"])
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(repair.stdout.contains("recoveredRecording"), "\(repair)")
            let listed = try await CameraSunBinary.runOffPool(["library", "list", "--library", library.path, "--json"])
            let asset = try #require((try listed.jsonObject()["assets"] as? [[String: Any]])?.first)
            let movie = try #require(asset["movie"] as? [String: Any], "\(asset)")
            #expect(movie["recovered"] as? Bool == true)
            let path = library.appendingPathComponent(try #require(asset["path"] as? String)).path
            #expect(try runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)
            #expect(try Self.streams(of: path)["h264"].map { $0.frames >= 30 } == true, "at least the first second survives")
            #expect(try await CameraSunBinary.runOffPool(["library", "verify", "--library", library.path]).exitCode == 0)
        }
    }

    @Test("Bad limits and sources are usage errors naming the value", arguments: [
        (["--duration", "-1"], "--duration '-1'"), (["--max-size", "0"], "--max-size '0'"), (["--audio", "bogus"], "bogus"),
    ])
    func badInput(arguments: [String], mention: String) async throws {
        let result = try await CameraSunBinary.runOffPool(["record"] + arguments + Self.small)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains(mention), "\(result)")
    }
}
