import CameraTestSupport
import Foundation
import Testing

/// `camerasun stream` against a real nginx-rtmp on loopback: the status it reports each second,
/// what nginx recorded (ffprobe, a real peer, reads it), and its errors.
@Suite("camerasun stream end to end", .serialized)
struct StreamEndToEndTests {
    static let small = ["--width", "640", "--height", "360"]

    @Test("--duration 3 --json: a status object a second and a final one; nginx records H.264 + AAC with the frames sent")
    func pushes() async throws {
        try await withNginxRTMP { server in
            let result = try await CameraSunBinary.run(["stream", "--to", server.url(key: "cli"), "--duration", "3", "--json"] + Self.small,
                                                       timeout: 120)
            #expect(result.exitCode == 0, "\(result)")
            let reports = try result.stdoutLines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            #expect(reports.count >= 3, "\(result.stdout)")
            #expect(reports.allSatisfy { Set($0.keys) == ["state", "url", "bitrateKbps", "sentFrames", "droppedFrames", "droppedGroups", "queuedSeconds",
                                                         "reconnects", "elapsed", "error"] }, "\(reports)")
            let final = try #require(reports.last)
            #expect(final["state"] as? String == "stopped" && final["reconnects"] as? Int == 0, "\(final)")
            #expect(final["url"] as? String == "rtmp://127.0.0.1:\(server.port)/live/****" && final["error"] is NSNull, "\(final)")
            #expect(((final["elapsed"] as? NSNumber)?.doubleValue ?? 0) >= 3, "\(final)")
            let sent = try #require(final["sentFrames"] as? Int)
            // At least a second of the 3 s: a loaded machine's camera delivers fewer than 90 (71 seen); what was sent nginx must have.
            #expect(sent >= 30, "\(final)")
            #expect(try await eventually { server.publishesEnded() >= 1 })
            let recording = try #require(try server.recordings().first, "\(server.errorLog())")
            let streams = try await RecordEndToEndTests.streams(of: recording.path)
            let video = try #require(streams["h264"], "\(streams)")
            #expect(abs(video.frames - sent) <= max(1, sent / 100), "nginx recorded \(video.frames) of \(sent) frames sent")
            #expect(streams["aac"] != nil, "\(streams)")
        }
    }

    @Test("a file: source streams its own sound: nginx's recording of a 440 Hz clip peaks at 440 Hz, looping past the clip's end")
    func streamsAFilesSound() async throws {
        try await withNginxRTMP { server in
            try await withScratchDirectory { folder in
                let clip = try await FileSourceEndToEndTests.toneClip(seconds: 2, in: folder)
                // 5 s of the 2 s clip: the recording outlasts the clip by more than the 0.5 s the check needs,
                // however long the stream's start takes on a loaded machine.
                let result = try await CameraSunBinary.run(["stream", "--to", server.url(key: "file"), "--duration", "5", "--source", "file:\(clip)",
                                                            "--json"], timeout: 120)
                #expect(result.exitCode == 0, "\(result)")
                #expect(try await eventually { server.publishesEnded() >= 1 })
                let recording = try #require(try server.recordings().first, "\(server.errorLog())")
                let samples = try await FileSourceEndToEndTests.sound(of: recording.path)
                try #require(samples.count >= 48_000 * 5 / 2, "\(samples.count) samples")
                for start in [12_000, samples.count - 36_000] {
                    let peak = FileSourceEndToEndTests.peakFrequency(samples[start..<start + 24_000])
                    #expect(abs(peak - 440) <= 5, "\(peak) Hz from sample \(start)")
                }
            }
        }
    }

    @Test("--record keeps the stream in the library as one movie whose pictures are the stream's own packets, with a thumbnail, verified")
    func recordsTheStream() async throws {
        try await withNginxRTMP { server in
            try await withScratchDirectory { folder in
                let library = folder.appendingPathComponent("Library").path
                let result = try await CameraSunBinary.run(["stream", "--to", server.url(key: "kept"), "--duration", "3", "--record",
                                                            "--library", library, "--json"] + Self.small, timeout: 120)
                #expect(result.exitCode == 0, "\(result)")
                let listed = try await CameraSunBinary.run(["library", "list", "--library", library, "--json"])
                let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]])
                try #require(assets.count == 1 && assets.first?["kind"] as? String == "movie", "\(listed)")
                let movie = try #require(assets.first?["movie"] as? [String: Any], "\(listed)")
                #expect(movie["thumbnailPath"] is String && movie["audio"] as? String == "aac", "\(movie)")
                let listedPath = try #require(assets.first?["path"] as? String, "\(listed)")
                let path = listedPath.hasPrefix("/") ? listedPath : URL(fileURLWithPath: library).appendingPathComponent(listedPath).path
                #expect(try await eventually { server.publishesEnded() >= 1 })
                let recording = try #require(try server.recordings().first, "\(server.errorLog())")
                let taken = try await videoPacketHashes(of: path), streamed = try await videoPacketHashes(of: recording.path)
                let first = try #require(taken.first, "the take has no video packet")
                let start = try #require(streamed.firstIndex(of: first), "the take's first packet is not in the stream")
                #expect(taken.count >= 30 && Array(streamed[start..<min(start + taken.count, streamed.count)]) == taken,
                        "the take's \(taken.count) packets against the stream's \(streamed.count) from \(start)")
                #expect(try await CameraSunBinary.run(["library", "verify", "--library", library]).exitCode == 0)
            }
        }
    }

    /// The throttled stream's bitrate, kb/s, and the link's cap, bytes a second: a quarter of it,
    /// so that the send queue fills and drops while the link still moves (a stalled one reconnects).
    static let throttledBitrate = 1000
    static let throttledLink = throttledBitrate * 1000 / 8 / 4

    @Test("a link capped below the bitrate: whole groups of pictures dropped and reported, the queue's latency within its 2 s bound, RSS flat")
    func throttled() async throws {
        try await withNginxRTMP { server in
            try await withThrottlingProxy(to: server.port, bytesPerSecond: Self.throttledLink) { proxy in
                try await withScratchDirectory { folder in
                    let printed = folder.appendingPathComponent("stdout")
                    _ = FileManager.default.createFile(atPath: printed.path, contents: nil)
                    let process = try CameraSunBinary.launch(["stream", "--to", "rtmp://127.0.0.1:\(proxy.port)/live/slow",
                                                              "--bitrate", "\(Self.throttledBitrate)",
                                                              "--duration", "20", "--json"] + Self.small,
                                                             standardOutput: try FileHandle(forWritingTo: printed))
                    // The process's resident memory each time it reports, read by the kernel, not by camerasun.
                    var resident: [Int] = [], reports = 0
                    _ = try await eventually(timeout: .seconds(120)) {
                        let lines = try String(contentsOf: printed, encoding: .utf8).split(separator: "\n").count
                        if lines > reports, let kilobytes = Self.residentKilobytes(of: process.processIdentifier) {
                            (reports, resident) = (lines, resident + [kilobytes])
                        }
                        return !process.isRunning
                    }
                    process.waitUntilExit()
                    #expect(process.terminationStatus == 0)
                    let lines = try String(contentsOf: printed, encoding: .utf8).split(separator: "\n")
                    let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
                    let final = try #require(objects.last)
                    #expect((final["droppedGroups"] as? Int ?? 0) > 0 && (final["droppedFrames"] as? Int ?? 0) > 0, "\(final)")
                    #expect(final["reconnects"] as? Int == 0, "\(final)")
                    let queued = objects.compactMap { ($0["queuedSeconds"] as? NSNumber)?.doubleValue }
                    #expect(queued.count == objects.count && queued.allSatisfy { $0 <= 2 }, "queued seconds each second: \(queued)")
                    // Flat: after the first 5 s the process grows by less than `residentGrowthBound`, its
                    // last five readings against its first five (medians: a frame or two in flight when a
                    // report is read is no growth).
                    let settled = Array(resident.dropFirst(5))
                    try #require(settled.count >= 10, "resident kB each second: \(resident)")
                    let growth = Self.median(settled.suffix(5)) - Self.median(settled.prefix(5))
                    #expect(growth < Self.residentGrowthBound, "resident kB each second: \(resident)")
                    #expect(proxy.bytesForwarded > 0)
                    #expect(try await eventually { server.publishesEnded() >= 1 })
                    let recording = try #require(try server.recordings().first, "\(server.errorLog())")
                    let video = try #require(try await RecordEndToEndTests.streams(of: recording.path)["h264"])
                    let sent = try #require(final["sentFrames"] as? Int)
                    #expect(sent > 0 && abs(video.frames - sent) <= max(1, sent / 100), "nginx recorded \(video.frames) of \(sent) frames sent")
                }
            }
        }
    }

    /// How much a throttled stream's process may grow from its 5th second to its end, kB. Measured:
    /// +128 kB; +2.6 MB in 17 s when the send queue still held the groups it had dropped.
    static let residentGrowthBound = 1024

    /// The middle of `readings` (the upper middle of an even count).
    static func median(_ readings: ArraySlice<Int>) -> Int {
        readings.sorted()[readings.count / 2]
    }

    /// VmRSS of process `pid` from /proc, kB; nil once it has ended.
    static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    @Test("no --to, a URL that is not RTMP, and a bitrate that is not a number are usage errors naming the value",
          arguments: [([String](), "--to rtmp://"), (["--to", "http://127.0.0.1/live/key"], "http"), (["--to", "rtmp://127.0.0.1/live/k", "--bitrate", "fast"], "fast")])
    func usage(flags: [String], named: String) async throws {
        let result = try await CameraSunBinary.run(["stream"] + flags)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.hasPrefix("camerasun: error: ") && result.stderr.contains(named), "\(result.stderr)")
    }

    @Test("a key the server refuses in its answer (nginx: \"Already publishing\") is a runtime error with its words and what to check, the key masked")
    func refusedKey() async throws {
        try await withNginxRTMP { server in
            try await server.withKeyInUse("secret") {
                let result = try await CameraSunBinary.run(["stream", "--to", server.url(key: "secret"), "--duration", "20"] + Self.small,
                                                           timeout: 120)
                #expect(result.exitCode == 1, "\(result)")
                #expect(result.stderr.contains("\"Already publishing\" — check the app (live) and the stream key"), "\(result.stderr)")
                #expect(!result.stderr.contains("secret"), "\(result.stderr)")
            }
        }
    }

    @Test("a server dropping the publisher without an answer is tried again: --duration 8 --json ends stopped, reconnected, exit 0")
    func droppedWithoutAnswer() async throws {
        try await withNginxRTMP { server in
            let result = try await CameraSunBinary.run(["stream", "--to", server.refusedURL(key: "cam1"), "--duration", "8", "--json"] + Self.small,
                                                       timeout: 120)
            #expect(result.exitCode == 0, "\(result)")
            let line = try #require(result.stdoutLines.last, "\(result)")
            let final = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(final["state"] as? String == "stopped" && (final["reconnects"] as? Int ?? 0) >= 1, "\(result.stdout)")
        }
    }

    @Test("a server that is not there is a runtime error naming it and what to check")
    func nothingListening() async throws {
        let result = try await CameraSunBinary.run(["stream", "--to", "rtmp://127.0.0.1:9/live/key", "--duration", "10"] + Self.small,
                                                   timeout: 120)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("127.0.0.1:9"), "\(result.stderr)")
    }
}
