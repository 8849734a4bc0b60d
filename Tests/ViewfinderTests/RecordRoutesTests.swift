import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// `POST /api/record` and `/sounds/NAME` over a real server with a fake camera side.
    @Suite struct RecordRoutes {
        @Test func startAndStopReachTheBackendWithTheirFields() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let calls = [
                (#"{"action":"start"}"#, #"{"isRecording":true}"#),
                (#"{"action":"start","maxDuration":12,"watermark":"CameraSun"}"#, #"{"isRecording":true}"#),
                (#"{"action":"stop"}"#, #"{"id":"2","kind":"movie"}"#),
            ]
            for (body, answer) in calls {
                let response = try await connection.request("POST", "/api/record", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status == 200 && response.text == answer, "\(body): \(response.text)")
            }
            #expect(test.backend.commands == ["record start unlimited no watermark", #"record start 12.0 s "CameraSun""#, "record stop"])
        }

        @Test(arguments: [
            (#"{"action":"pause"}"#, #"action: "pause" is not start or stop"#),
            (#"{"action":"start","maxDuration":-1}"#, "maxDuration: -1.0 s — give a positive number of seconds"),
            (#"{"action":"start","maxDuration":0}"#, "maxDuration: 0.0 s — give a positive number of seconds"),
            (#"{"action":"stop","maxDuration":5}"#, #"the request body: "maxDuration" and "watermark" go with "start" only"#),
            (#"{"action":"start","watermark":7}"#, "watermark: expected a string"),
            (#"{}"#, "action: missing — add it to the JSON object"),
        ])
        func aBadRecordBodyIsA400(body: String, error: String) async throws {
            let test = try TestServer()
            let response = try await test.connect().request("POST", "/api/record", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(response.status == 400)
            #expect(response.errorMessage == error)
            #expect(test.backend.commands.isEmpty)
        }

        /// A sound the user put in the folder is served as it is; one they did not is a 404, on
        /// which the page synthesises its own.
        @Test func aSoundInTheFolderIsServedAndAMissingOneIs404() async throws {
            try await withScratchDirectory { folder in
                let wave = Data("RIFF\u{24}\0\0\0WAVEfmt ".utf8) + Data(repeating: 7, count: 40)
                try wave.write(to: folder.appendingPathComponent("shutter.wav"))
                let ogg = Data("OggS".utf8) + Data(repeating: 9, count: 20)
                try ogg.write(to: folder.appendingPathComponent("record-stop.ogg"))
                let test = try TestServer(sounds: SoundFolder(directory: folder))
                let connection = try test.connect()
                let shutter = try await connection.request("GET", "/sounds/shutter")
                #expect(shutter.status == 200 && shutter.headers["content-type"] == "audio/wav" && shutter.body == wave)
                let stop = try await connection.request("GET", "/sounds/record-stop")
                #expect(stop.status == 200 && stop.headers["content-type"] == "audio/ogg" && stop.body == ogg)
                let start = try await connection.request("GET", "/sounds/record-start")
                #expect(start.status == 404)
                #expect(start.errorMessage == #"no sound "record-start" in \#(folder.path) — the page synthesises it"#)
                #expect(try await connection.request("GET", "/sounds/secret").status == 404, "only the page's sounds are served")
            }
        }

        @Test(arguments: [
            (["XDG_CONFIG_HOME": "/home/ann/.cfg"], "/home/ann/.cfg/camerasun/sounds"),
            (["XDG_CONFIG_HOME": "relative/ignored"], FileManager.default.homeDirectoryForCurrentUser.path + "/.config/camerasun/sounds"),
            ([:], FileManager.default.homeDirectoryForCurrentUser.path + "/.config/camerasun/sounds"),
        ])
        func theSoundFolderIsCameraSunsConfigFolder(environment: [String: String], path: String) {
            #expect(SoundFolder.standard(environment: environment).directory.standardizedFileURL.path == path)
        }
    }
}
