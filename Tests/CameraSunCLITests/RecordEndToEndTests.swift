import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// `camerasun record` end to end: takes into a library, read back by ffprobe (a real peer), ended
/// by a limit, by Ctrl-C, and cut off by `kill -9` and recovered by `library repair`.
@Suite("camerasun record end to end")
struct RecordEndToEndTests {
    static let small = ["--width", "320", "--height", "180"]

    /// What ffprobe says of a recording's streams: codec name → (frames, duration in seconds).
    static func streams(of path: String) async throws -> [String: (frames: Int, duration: Double)] {
        let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries",
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

    /// `record --duration SECONDS --json` into `library`, with `flags`: the command's result and its asset object.
    static func take(seconds: Int, into library: String, flags: [String] = []) async throws -> (result: CommandResult, asset: [String: Any]) {
        let result = try await CameraSunBinary.run(["record", "--duration", "\(seconds)", "--library", library, "--json"] + small
            + flags, timeout: 180)
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
            let streams = try await Self.streams(of: path)
            #expect(streams["h264"]?.frames == frames, "\(streams)")
            #expect(abs((asset["duration"] as? Double ?? 0) - 2) <= 1.0 / 30 + 1e-6, "\(asset)")
            let audio = try #require(streams["aac"])
            #expect(abs(audio.duration - 2) < 0.05, "\(streams)")
            #expect(try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)

            let listed = try await CameraSunBinary.run(["library", "list", "--library", library, "--json"])
            let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]])
            #expect(assets.count == 1 && assets.first?["kind"] as? String == "movie", "\(listed)")
            // Its thumbnail: a JPEG of the take, 320x180 (the frame's own size here, never enlarged).
            let thumbnail = try #require((assets.first?["movie"] as? [String: Any])?["thumbnailPath"] as? String, "\(listed)")
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: library).appendingPathComponent(thumbnail))
            #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
            let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                         URL(fileURLWithPath: library).appendingPathComponent(thumbnail).path])
            #expect(String(decoding: probe.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "320,180")
            #expect(try await CameraSunBinary.run(["library", "verify", "--library", library]).exitCode == 0)
        }
    }

    /// Each frame's mean luma (0–255) in the movie at `path`, from ffmpeg's signalstats.
    static func frameLumas(of path: String) async throws -> [Double] {
        let printed = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vf",
                                                      "signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-", "-f", "null", "-"])
        return String(decoding: printed.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("lavfi.signalstats.YAVG=") ? Double(line.dropFirst("lavfi.signalstats.YAVG=".count)) : nil
        }
    }

    @Test("A take begins once the exposure has settled: every frame of a night street is within ⅓ EV of its last")
    func firstFrameSettled() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            // The night street's first frames, before auto-exposure has found it, are 0.8 EV darker.
            let path = try #require(try await Self.take(seconds: 2, into: library, flags: ["--source", "sim:night-street"]).asset["path"] as? String)
            let lumas = try await Self.frameLumas(of: path)
            let last = try #require(lumas.last)
            // Linear light from BT.709 video levels, about a 2.2 power.
            let linear = { (luma: Double) in pow(max(luma - 16, 1) / 219, 2.2) }
            let farthest = lumas.map { abs(log2(linear($0) / linear(last))) }.max() ?? .infinity
            #expect(farthest < 1.0 / 3, "frames' mean luma \(lumas.prefix(15)) … \(last)")
        }
    }

    @Test("A/V sync (sim:SCENE,syncmarks): each click of the simulated microphone is within one frame of the camera's flash frame, at the start and after a minute",
          arguments: [(3, ["--realtime"]), (62, ["--no-realtime"])])
    func avSync(seconds: Int, flags: [String]) async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            let path = try #require(try await Self.take(seconds: seconds, into: library,
                                                        flags: flags + ["--source", "sim:backlit-portrait,syncmarks"]).asset["path"] as? String)
            let marks = try await SyncMarkReading(path: path)
            let (flashes, clicks) = (marks.flashes, marks.clicks)
            // A click at every whole second of the camera's clock inside the take, which begins once
            // the exposure has settled, between two of them: S − 1 or S clicks a second apart. A flash
            // frame dropped on a loaded machine leaves its click unpaired; each flash found has its
            // click, and flashes are found in the first and the last three seconds.
            #expect((seconds - 1)...seconds ~= clicks.count, "clicks at \(clicks)")
            #expect(zip(clicks, clicks.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 1.0 / 30 }, "clicks at \(clicks)")
            #expect(flashes.contains { $0 < 3 } && flashes.contains { $0 > Double(seconds - 3) }, "flashes at \(flashes)")
            for (flash, offset) in marks.offsets {
                #expect(offset <= 1.0 / 30, "the click nearest the flash frame at \(flash) s is \(offset) s from it")
            }
        }
    }

    @Test("Without syncmarks (the default) a take has neither flash frames nor clicks: the simulated microphone's tone alone")
    func noSyncMarksByDefault() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            let path = try #require(try await Self.take(seconds: 3, into: library, flags: ["--no-realtime", "--source", "sim:backlit-portrait"])
                .asset["path"] as? String)
            let marks = try await SyncMarkReading(path: path)
            #expect(marks.frames == 90 && marks.flashes.isEmpty && marks.clicks.isEmpty, "flashes at \(marks.flashes), clicks at \(marks.clicks)")
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
            await onOwnThread { process.waitUntilExit() }
            #expect(process.terminationStatus == 0)
            let printed = try Data(contentsOf: output)
            let object = try JSONSerialization.jsonObject(with: printed) as? [String: Any]
            let asset = try #require(object?["asset"] as? [String: Any], "stdout: \(String(decoding: printed, as: UTF8.self))")
            #expect(asset["stopReason"] as? String == reason)
            let path = try #require(asset["path"] as? String)
            #expect(try await Self.streams(of: path)["h264"]?.frames == asset["frames"] as? Int)
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
            await onOwnThread { process.waitUntilExit() }

            let verify = try await CameraSunBinary.run(["library", "verify", "--library", library.path, "--json"])
            #expect(verify.exitCode == 1, "\(verify)")
            #expect(verify.stdout.contains("unfinishedRecording"), "\(verify)")
            let repair = try await CameraSunBinary.run(["library", "repair", "--library", library.path, "--json"])
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(repair.stdout.contains("recoveredRecording"), "\(repair)")
            let listed = try await CameraSunBinary.run(["library", "list", "--library", library.path, "--json"])
            let asset = try #require((try listed.jsonObject()["assets"] as? [[String: Any]])?.first)
            let movie = try #require(asset["movie"] as? [String: Any], "\(asset)")
            #expect(movie["recovered"] as? Bool == true)
            let path = library.appendingPathComponent(try #require(asset["path"] as? String)).path
            #expect(try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)
            #expect(try await Self.streams(of: path)["h264"].map { $0.frames >= 30 } == true, "at least the first second survives")
            #expect(try await CameraSunBinary.run(["library", "verify", "--library", library.path]).exitCode == 0)
        }
    }

    @Test("A microphone that does not open is a runtime error naming it, and nothing is left in the library")
    func missingMicrophone() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["record", "--duration", "2", "--audio", "alsa:hw:9,0", "--library", library.path]
                + Self.small)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("hw:9,0"), "\(result)")
            #expect(Self.partialFiles(in: library).isEmpty)
            let listed = try await CameraSunBinary.run(["library", "list", "--library", library.path, "--json"])
            #expect((try listed.jsonObject()["assets"] as? [Any])?.isEmpty == true, "\(listed)")
        }
    }

    @Test("Bad limits and sources are usage errors naming the value", arguments: [
        (["--duration", "-1"], "--duration -1 seconds is outside"), (["--max-size", "0"], "--max-size 0 megabytes is outside"), (["--audio", "bogus"], "bogus"),
    ])
    func badInput(arguments: [String], mention: String) async throws {
        let result = try await CameraSunBinary.run(["record"] + arguments + Self.small)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains(mention), "\(result)")
    }
}
