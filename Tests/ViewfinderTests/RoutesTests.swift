import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// The viewfinder's routes over a real server: each control reaches the camera side, the page is at `/`.
    @Suite struct Routes {
        @Test func routesEveryControlToTheBackend() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let calls: [(String, String, String)] = [
                ("/api/meter", #"{"point":{"x":0.1,"y":0.9}}"#, #"{"point":{"x":0.25,"y":0.75}}"#),
                ("/api/lock", #"{"ae":true}"#, #"{"aeState":"converged","evBias":0}"#),
                ("/api/zoom", #"{"factor":2}"#, #"{"aeState":"converged","evBias":0}"#),
                ("/api/metering", #"{"mode":"spot"}"#, #"{"aeState":"converged","evBias":0}"#),
                ("/api/photo", "", #"{"id":"1"}"#),
                ("/api/photo", #"{"flash":"auto"}"#, #"{"id":"1"}"#),
            ]
            for (path, body, answer) in calls {
                let response = try await connection.request("POST", path, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status == 200, "\(path): \(response.text)")
                #expect(response.text == answer)
                #expect(response.headers["content-type"] == "application/json")
            }
            #expect(test.backend.commands == [
                "meter devicePoint(CameraCore.NormalizedPoint(x: 0.1, y: 0.9))", "lock LockCommand(ae: Optional(true), af: nil, awb: nil)",
                "zoom factor(2.0)", "metering spot", "photo flash off", "photo flash auto",
            ])
        }

        @Test func aMistypedModeIsA400ListingTheModes() async throws {
            let test = try TestServer()
            let response = try await test.connect().request(
                "POST", "/api/metering", headers: ["Content-Type": "application/json"], body: Data(#"{"mode":"sppot"}"#.utf8))
            #expect(response.status == 400)
            #expect(response.errorMessage == #"mode: "sppot" is not average, centre, spot, matrix or sun"#)
            #expect(test.backend.commands.isEmpty)
        }

        /// The camera-setting routes (issue 20: they did not exist, every one was a 404).
        @Test func routesEverySettingToTheBackend() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let calls = [
                ("/api/flicker", #"{"mode":"50"}"#), ("/api/whitebalance", #"{"temperature":2850}"#),
                ("/api/whitebalance", #"{"gains":{"red":1.5,"blue":2}}"#), ("/api/whitebalance", #"{"mode":"locked"}"#),
                ("/api/focus", #"{"mode":"auto"}"#), ("/api/focus", #"{"lensPosition":0.3}"#),
                ("/api/torch", #"{"on":true,"level":0.5}"#), ("/api/torch", #"{"on":false}"#),
                ("/api/hdr", #"{"on":false}"#), ("/api/hdr", #"{"on":true}"#), ("/api/shadows", #"{"shadows":-1.5}"#),
            ]
            for (path, body) in calls {
                let response = try await connection.request("POST", path, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status == 200, "\(path) \(body): \(response.text)")
                #expect(response.text == #"{"aeState":"converged","evBias":0}"#, "a setting answers the new /state")
            }
            #expect(test.backend.commands == [
                "flicker 50", "white balance manualTemperature(2850 K)",
                "white balance manualGains(CameraCore.WhiteBalanceGains(red: 1.5, green: 1.0, blue: 2.0))", "white balance locked",
                "focus autoOnce", "focus manual(lensPosition: 0.3)", "torch 0.5", "torch 0.0", "hdr false", "hdr true",
                "shadows -1.5",
            ])
        }

        @Test(arguments: [
            ("/api/flicker", #"{"mode":"100"}"#, #"mode: "100" is not off, 50, 60 or auto"#),
            ("/api/whitebalance", #"{"mode":"cloudy"}"#, #"mode: "cloudy" is not auto or locked"#),
            ("/api/focus", #"{"mode":"macro"}"#, #"mode: "macro" is not auto, continuous or locked"#),
            ("/api/torch", #"{"level":1}"#, "on: missing — add it to the JSON object"),
            ("/api/hdr", #"{}"#, "on: missing — add it to the JSON object"),
            ("/api/shadows", #"{"shadows":"dark"}"#, "shadows: expected a number"),
            ("/api/photo", #"{"bracket":[-2,0,2],"flash":"on"}"#,
             #"flash: "on" with a bracket — a bracketed photo is taken without the flash; leave out one of them"#),
        ])
        func aBadSettingIsA400NamingTheValue(path: String, body: String, error: String) async throws {
            let test = try TestServer()
            let response = try await test.connect().request("POST", path, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(response.status == 400)
            #expect(response.errorMessage == error)
            #expect(test.backend.commands.isEmpty)
        }

        @Test func servesTheViewfinderPageAtRoot() async throws {
            let test = try TestServer(page: ViewfinderPage.data)
            let response = try await test.connect().request("GET", "/?lang=zh", headers: ["Host": test.host])
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.text == ViewfinderPage.html)
            #expect(response.text.contains("亮度分析"))
        }
    }
}
