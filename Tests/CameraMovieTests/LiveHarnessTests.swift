import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// The live-push tests' peers checked against a real publisher, ffmpeg: nginx-rtmp records what it
/// receives, refuses a key, comes back after a crash.
@Suite("Live-push harness: nginx-rtmp")
struct NginxRTMPServerTests {
    @Test("a 3 s push is recorded whole: H.264 + AAC, 90 frames")
    func recordsAPush() async throws {
        try await withNginxRTMP { server in
            let push = try await Publisher.push(to: server.url(key: "cam1"), seconds: 3)
            #expect(push.status == 0, "\(push.errors)")
            #expect(try await eventually { server.publishesEnded() == 1 })
            let recordings = try server.recordings()
            #expect(recordings.map { $0.lastPathComponent.hasPrefix("cam1-") } == [true])
            let video = try await FFprobe.streams(of: recordings[0].path)
            #expect(video.codec == "h264")
            #expect(video.frames == 90)
            let audio = try await FFprobe.audioStream(of: recordings[0].path)
            #expect(audio.codec == "aac")
            #expect(abs(audio.duration - 3) < 0.1, "audio lasts \(audio.duration) s")
        }
    }

    @Test("a publish to the refused application fails, and nothing is recorded")
    func refusesAKey() async throws {
        try await withNginxRTMP { server in
            let push = try await Publisher.push(to: server.refusedURL(key: "cam1"), seconds: 1)
            #expect(push.status != 0)
            #expect(server.errorLog().contains("access forbidden by rule"))
            #expect(try server.recordings().isEmpty)
        }
    }

    @Test("killed mid-stream and restarted on its port: the next push lands in a second recording")
    func survivesAKill() async throws {
        try await withNginxRTMP { server in
            let cut = Task { try await Publisher.push(to: server.url(key: "cam1"), seconds: 10) }
            #expect(try await eventually { try server.recordings().first.map { try recordedBytes($0) > 10_000 } ?? false })
            try await server.kill()
            #expect(!server.isRunning)
            #expect(try await cut.value.status != 0)

            let port = server.port
            try await server.restart()
            #expect(server.port == port && server.isRunning)
            let push = try await Publisher.push(to: server.url(key: "cam1"), seconds: 3)
            #expect(push.status == 0, "\(push.errors)")
            #expect(try await eventually { server.publishesEnded() == 1 })
            let recordings = try server.recordings()
            try #require(recordings.count == 2)
            #expect(try await FFprobe.streams(of: recordings[1].path).frames == 90)
        }
    }

    @Test("stopped, it no longer listens")
    func stops() async throws {
        try await withNginxRTMP { server in
            try await server.stop()
            #expect(!server.isRunning)
            #expect(throws: SocketFailure.self) { try RawHTTPConnection(port: server.port) }
        }
    }

    private func recordedBytes(_ recording: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int ?? 0
    }
}

/// ffmpeg publishing a 320×180 test pattern at 30 fps (a keyframe a second) and a tone, in real time.
enum Publisher {
    /// Pushes `seconds` of it to `url` and returns ffmpeg's exit status and what it printed.
    static func push(to url: String, seconds: Int, bitrate: String? = nil) async throws -> (status: Int32, errors: String) {
        var arguments = ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi", "-i", "sine",
                         "-t", String(seconds), "-c:v", "libx264", "-g", "30", "-c:a", "aac"]
        if let bitrate {
            // Constant bitrate, padded with filler data, so that the stream needs `bitrate` whatever the picture.
            arguments += ["-b:v", bitrate, "-minrate", bitrate, "-maxrate", bitrate, "-bufsize", bitrate, "-x264-params", "nal-hrd=cbr"]
        }
        let command = arguments + ["-f", "flv", url]
        let result = try await runTool("/usr/bin/ffmpeg", command)
        return (result.status, result.errors)
    }
}

@Suite("Live-push harness: throttling proxy")
struct ThrottlingProxyTests {
    static let cap = 50_000

    @Test("a 1 Mbit/s push through a 50 kB/s proxy arrives at no more than 50 kB/s (+20%)")
    func capsThroughput() async throws {
        try await withNginxRTMP { server in
            try await withThrottlingProxy(to: server.port, bytesPerSecond: Self.cap) { (proxy: ThrottlingProxy) async throws in
                let push = Task { try await Publisher.push(to: proxyURL(proxy, key: "slow"), seconds: 10, bitrate: "1M") }
                // Past the first tenth of a second's burst, bytes for 2 s at the cap.
                #expect(try await eventually { proxy.bytesForwarded >= Self.cap / 2 })
                let (start, startBytes) = (ContinuousClock.now, proxy.bytesForwarded)
                #expect(try await eventually { proxy.bytesForwarded >= startBytes + 2 * Self.cap })
                let rate = Double(proxy.bytesForwarded - startBytes) / (ContinuousClock.now - start).seconds
                // The cap holds; a loaded machine may forward less, which is no fault of the cap.
                #expect(rate < 1.2 * Double(Self.cap), "\(Int(rate)) B/s through a \(Self.cap) B/s cap")
                await proxy.stop()
                #expect(try await push.value.status != 0, "the push outlives the link it needs 2.5 times over")
            }
        }
    }

    @Test("a cap of 0 stalls the link; raising it lets the stream through")
    func stallsAndResumes() async throws {
        try await withNginxRTMP { server in
            try await withThrottlingProxy(to: server.port, bytesPerSecond: 0) { proxy in
                let push = Task { try await Publisher.push(to: proxyURL(proxy, key: "stalled"), seconds: 2) }
                #expect(try await eventually { proxy.connectionsAccepted == 1 })
                #expect(proxy.bytesForwarded == 0)
                proxy.bytesPerSecond = 10_000_000
                let result = try await push.value
                #expect(result.status == 0, "\(result.errors)")
                #expect(try await eventually { server.publishesEnded() == 1 })
                #expect(try await FFprobe.streams(of: try #require(server.recordings().first).path).frames == 60)
            }
        }
    }

    @Test("stop() ends a stalled connection and the listener")
    func stops() async throws {
        try await withNginxRTMP { server in
            try await withThrottlingProxy(to: server.port, bytesPerSecond: 0) { proxy in
                let connection = try RawHTTPConnection(port: proxy.port)
                #expect(try await eventually { proxy.connectionsAccepted == 1 })
                try connection.send("bytes the stalled link holds")
                await proxy.stop()
                #expect(try await connection.isClosedByServer())
                #expect(throws: SocketFailure.self) { try RawHTTPConnection(port: proxy.port) }
                #expect(proxy.bytesForwarded == 0)
            }
        }
    }

    private func proxyURL(_ proxy: ThrottlingProxy, key: String) -> String {
        "rtmp://127.0.0.1:\(proxy.port)/live/\(key)"
    }
}
