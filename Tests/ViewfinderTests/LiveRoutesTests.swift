import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// `POST /api/live` over a real server with a fake camera side.
    @Suite struct LiveRoutes {
        @Test func startAndStopReachTheBackendWithTheirFields() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let calls = [
                (#"{"action":"start","url":"rtmp://127.0.0.1/live/key"}"#, #"{"state":"connecting"}"#),
                (#"{"action":"start","url":"rtmp://127.0.0.1/live/key","bitrate":800}"#, #"{"state":"connecting"}"#),
                (#"{"action":"stop"}"#, #"{"state":"stopped"}"#),
            ]
            for (body, answer) in calls {
                let response = try await connection.request("POST", "/api/live", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status == 200 && response.text == answer, "\(body): \(response.text)")
            }
            #expect(test.backend.commands == ["live start rtmp://127.0.0.1/live/key default bitrate", "live start rtmp://127.0.0.1/live/key 800 kb/s",
                                              "live stop"])
        }

        @Test(arguments: [
            (#"{"action":"start"}"#, "url: missing — add it to the JSON object"),
            (#"{"action":"start","url":"rtmp://h/a/k","bitrate":50}"#, "bitrate: 50 kb/s — give a whole number of kilobits a second in 100…1000000"),
            (#"{"action":"start","url":"rtmp://h/a/k","bitrate":150.5}"#, "bitrate: 150.5 kb/s — give a whole number of kilobits a second in 100…1000000"),
            (#"{"action":"start","url":"rtmp://h/a/k","bitrate":1e-9}"#, "bitrate: 1e-09 kb/s — give a whole number of kilobits a second in 100…1000000"),
            // A number that overflowed the bits-a-second arithmetic and crashed the server.
            (#"{"action":"start","url":"rtmp://h/a/k","bitrate":9223372036854776}"#,
             "bitrate: 9.223372036854776e+15 kb/s — give a whole number of kilobits a second in 100…1000000"),
            (#"{"action":"stop","url":"rtmp://h/a/k"}"#, #"the request body: "url" and "bitrate" go with "start" only"#),
            (#"{"action":"pause"}"#, #"action: "pause" is not start or stop"#),
        ])
        func aBadLiveBodyIsA400(body: String, error: String) async throws {
            let test = try TestServer()
            let response = try await test.connect().request("POST", "/api/live", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(response.status == 400)
            #expect(response.errorMessage == error)
            #expect(test.backend.commands.isEmpty)
        }
    }
}
