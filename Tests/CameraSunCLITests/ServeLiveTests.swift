import CameraTestSupport
import Foundation
import Testing

/// The viewfinder's Go live on the real `camerasun serve`, pushing to nginx-rtmp on loopback:
/// `POST /api/live` starts and ends the stream, `/state`'s `live` follows it, nginx records it.
@Suite("serve goes live to nginx-rtmp", .serialized,
       .enabled(if: ServeProcess.releaseBinary != nil, "needs CAMERASUN_RELEASE_BINARY (make test sets it)"))
struct ServeLiveTests {
    static let small = ["--width", "640", "--height", "360"]

    static func live(_ state: [String: Any]) -> [String: Any] {
        state["live"] as? [String: Any] ?? [:]
    }

    @Test("start: /state.live goes live with the key masked and frames sent; stop: nginx has recorded the frames sent")
    func goesLive() async throws {
        try await withNginxRTMP { server in
            let serve = try await ServeProcess.start(binary: ServeProcess.releaseBinary, Self.small)
            let connection = try serve.connect()
            let idle = Self.live(try await connection.state { Self.live($0)["state"] != nil })
            #expect(idle["state"] as? String == "idle", "\(idle)")

            let started = try await connection.json("POST", "/api/live", #"{"action":"start","url":"\#(server.url(key: "page"))","bitrate":800}"#)
            #expect(started.status == 200 && started.object["state"] as? String == "connecting", "\(started.object)")
            #expect(started.object["url"] as? String == "rtmp://127.0.0.1:\(server.port)/live/****")
            let again = try await connection.json("POST", "/api/live", #"{"action":"start","url":"\#(server.url(key: "page"))"}"#)
            #expect(again.status == 409 && (again.object["error"] as? String)?.contains("already streaming") == true, "\(again.object)")
            let streaming = Self.live(try await connection.state { (jsonNumber(Self.live($0)["sentFrames"]) ?? 0) >= 60 })
            #expect(streaming["state"] as? String == "live" && (jsonNumber(streaming["sentFrames"]) ?? 0) >= 60, "\(streaming)")

            let stopped = try await connection.json("POST", "/api/live", #"{"action":"stop"}"#)
            #expect(stopped.status == 200 && stopped.object["state"] as? String == "stopped", "\(stopped.object)")
            let sent = try #require(stopped.object["sentFrames"] as? Int)
            let after = Self.live(try await connection.json("GET", "/state").object)
            #expect(after["state"] as? String == "stopped" && after["sentFrames"] as? Int == sent, "\(after)")
            let notLive = try await connection.json("POST", "/api/live", #"{"action":"stop"}"#)
            #expect(notLive.status == 409, "\(notLive.object)")
            #expect(try await serve.interrupt() == 0)

            #expect(try await eventually { server.publishesEnded() == 1 })
            let recording = try #require(try server.recordings().first)
            let video = try #require(try await RecordEndToEndTests.streams(of: recording.path)["h264"])
            #expect(abs(video.frames - sent) <= max(1, sent / 100), "nginx recorded \(video.frames) of \(sent) frames sent")
        }
    }

    @Test("a URL that is not RTMP is a 400 naming it; a key the server refuses shows as failed with the server's answer")
    func refusals() async throws {
        try await withNginxRTMP { server in
            let serve = try await ServeProcess.start(binary: ServeProcess.releaseBinary, Self.small)
            let connection = try serve.connect()
            let bad = try await connection.json("POST", "/api/live", #"{"action":"start","url":"http://127.0.0.1/live/key"}"#)
            #expect(bad.status == 400 && (bad.object["error"] as? String)?.contains("the scheme http is not supported") == true, "\(bad.object)")

            // nginx answers a publish of a key another publisher holds with its refusal ("Already publishing").
            try await server.withKeyInUse("secret") {
                let started = try await connection.json("POST", "/api/live", #"{"action":"start","url":"\#(server.url(key: "secret"))"}"#)
                #expect(started.status == 200, "\(started.object)")
                let failed = Self.live(try await connection.state { Self.live($0)["state"] as? String == "failed" })
                #expect(failed["state"] as? String == "failed", "\(failed)")
                let error = failed["error"] as? String ?? ""
                #expect(error.contains("rtmp://127.0.0.1:\(server.port)/live/****: \"Already publishing\"") && !error.contains("secret"), "\(failed)")
            }
            #expect(try await serve.interrupt() == 0)
        }
    }
}
