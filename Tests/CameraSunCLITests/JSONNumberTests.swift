@testable import CameraSunCLI
import Foundation
import Testing

/// Every numeric field of every control body (docs/CLI.md's HTTP API) fed the numbers that trap
/// arithmetic — a conversion to a whole number, a `Duration`, bits a second — against a running
/// `camerasun serve`: each must be answered (a 4xx naming the value, or a 2xx), never a 5xx and
/// never a crash. `{"action":"start","bitrate":9223372036854776}` crashed the server before.
@Suite("HTTP numbers never crash the server", .serialized)
struct JSONNumberTests {
    static let values = ["0", "-1", "1e-9", "1e300", "-1e300", "9223372036854775808", "9223372036854776", "1.5"]

    /// A body per numeric field, `#` where the number goes, and the body that undoes a started
    /// action (a take or a stream), if any.
    static let bodies: [(route: String, body: String, undo: String?)] = [
        ("/api/exposure", #"{"bias":#}"#, nil),
        ("/api/exposure", #"{"mode":"custom","exposureTime":#,"gain":1}"#, nil),
        ("/api/exposure", #"{"mode":"custom","exposureTime":0.01,"gain":#}"#, nil),
        ("/api/meter", #"{"point":{"x":#,"y":0.5}}"#, nil),
        ("/api/meter", #"{"view":{"x":0,"y":0,"width":#,"height":90},"gravity":"fill"}"#, nil),
        ("/api/zoom", #"{"factor":#}"#, nil),
        ("/api/zoom", #"{"rampTo":#,"rate":1}"#, nil),
        ("/api/zoom", #"{"rampTo":2,"rate":#}"#, nil),
        ("/api/shadows", #"{"shadows":#}"#, nil),
        ("/api/whitebalance", #"{"temperature":#,"tint":0}"#, nil),
        ("/api/whitebalance", #"{"temperature":5000,"tint":#}"#, nil),
        ("/api/whitebalance", #"{"gains":{"red":#,"blue":1}}"#, nil),
        ("/api/focus", #"{"lensPosition":#}"#, nil),
        ("/api/torch", #"{"on":true,"level":#}"#, nil),
        ("/api/photo", #"{"bracket":[#,0]}"#, nil),
        ("/api/record", #"{"action":"start","maxDuration":#}"#, #"{"action":"stop"}"#),
        ("/api/live", #"{"action":"start","url":"rtmp://127.0.0.1:9/live/key","bitrate":#}"#, #"{"action":"stop"}"#),
    ]

    @Test func everyNumericFieldIsAnsweredWithoutAServerError() async throws {
        let server = try await ServeProcess.start(ServeTests.smallCamera)
        let connection = try server.connect()
        var serverErrors: [String] = []
        for (route, template, undo) in Self.bodies {
            for value in Self.values {
                let body = template.replacingOccurrences(of: "#", with: value)
                let answer = try await connection.request("POST", route, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                if answer.status >= 500 { serverErrors.append("\(route) \(body): \(answer.status) \(answer.text)") }
                if answer.status < 300, let undo {
                    _ = try await connection.request("POST", route, headers: ["Content-Type": "application/json"], body: Data(undo.utf8))
                }
                try #require(server.isRunning, "\(route) \(body) ended the server: \(server.diagnostics)")
            }
        }
        #expect(serverErrors.isEmpty, "\(serverErrors)")
        #expect(try await server.interrupt() == 0)
    }

    @Test("A take's maximum duration is one frame's time to a million seconds, as record's --duration")
    func maximumDurationIsBounded() async throws {
        let server = try await ServeProcess.start(ServeTests.smallCamera)
        let connection = try server.connect()
        for value in ["1e-9", "1e300"] {
            let answer = try await connection.json("POST", "/api/record", #"{"action":"start","maxDuration":\#(value)}"#)
            #expect(answer.status == 400)
            #expect((answer.object["error"] as? String)?.contains("give one frame's time (1/15 s) to 1000000 seconds") == true, "\(answer.object)")
        }
        #expect(try await server.interrupt() == 0)
    }
}
