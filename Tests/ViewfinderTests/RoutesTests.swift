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
