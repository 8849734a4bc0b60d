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
            #expect(reports.allSatisfy { Set($0.keys) == ["state", "bitrateKbps", "sentFrames", "droppedFrames", "reconnects"] }, "\(reports)")
            let final = try #require(reports.last)
            #expect(final["state"] as? String == "stopped" && final["reconnects"] as? Int == 0, "\(final)")
            let sent = try #require(final["sentFrames"] as? Int)
            #expect(sent >= 80, "\(final)")
            #expect(try await eventually { server.publishesEnded() >= 1 })
            let recording = try #require(try server.recordings().first, "\(server.errorLog())")
            let streams = try RecordEndToEndTests.streams(of: recording.path)
            let video = try #require(streams["h264"], "\(streams)")
            #expect(abs(video.frames - sent) <= max(1, sent / 100), "nginx recorded \(video.frames) of \(sent) frames sent")
            #expect(streams["aac"] != nil, "\(streams)")
        }
    }

    @Test("no --to, a URL that is not RTMP, and a bitrate that is not a number are usage errors naming the value",
          arguments: [([String](), "--to rtmp://"), (["--to", "http://127.0.0.1/live/key"], "http"), (["--to", "rtmp://127.0.0.1/live/k", "--bitrate", "fast"], "fast")])
    func usage(flags: [String], named: String) async throws {
        let result = try await CameraSunBinary.run(["stream"] + flags)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.hasPrefix("camerasun: error: ") && result.stderr.contains(named), "\(result.stderr)")
    }

    @Test("a server that is not there is a runtime error naming it and what to check")
    func nothingListening() async throws {
        let result = try await CameraSunBinary.run(["stream", "--to", "rtmp://127.0.0.1:9/live/key", "--duration", "10"] + Self.small,
                                                   timeout: 120)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("127.0.0.1:9"), "\(result.stderr)")
    }
}
