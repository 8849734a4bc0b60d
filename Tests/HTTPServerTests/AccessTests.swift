import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    /// Who can watch and steer the camera (docs/CLI.md, "Access"), over the wire.
    @Suite struct Access {
        @Test(arguments: ["/state", "/snapshot", "/stream", "/events"])
        func aNetworkListenerShowsNothingWithoutTheToken(path: String) async throws {
            let token = AccessToken.generate()
            let test = try TestServer(listen: "0.0.0.0", token: token)
            let missing = try await test.connect().request("GET", path)
            #expect(missing.status == 401)
            #expect(missing.headers["content-type"] == "application/json")
            #expect(missing.errorMessage == "\(path) needs the token — send Authorization: Bearer TOKEN or open the printed URL first")
            let wrong = try await test.connect().request("GET", path, headers: ["Authorization": "Bearer 0000"])
            #expect(wrong.status == 403)
            #expect(wrong.errorMessage?.isEmpty == false)

            let page = try await test.connect().request("GET", "/?token=\(token.value)")
            #expect(page.status == 200)
            #expect(page.body == TestApp.page)
            let cookie = String(try #require(page.headers["set-cookie"]).prefix { $0 != ";" })
            for headers in [["Authorization": "Bearer \(token.value)"], ["Cookie": cookie]] {
                let connection = try test.connect()
                try connection.send("GET \(path) HTTP/1.1\r\nHost: \(connection.host)\r\n"
                    + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n")
                #expect(try await connection.readHead().status == 200, "\(headers)")
            }
        }

        @Test func thePageItselfNeedsNoToken() async throws {
            let test = try TestServer(listen: "0.0.0.0", token: AccessToken.generate())
            let page = try await test.connect().request("GET", "/")
            #expect(page.status == 200)
            #expect(page.body == TestApp.page)
            #expect(page.headers["set-cookie"] == nil)
        }

        /// A DNS-rebinding page sends its own domain as `Host`; a token does not make that acceptable.
        @Test(arguments: ["127.0.0.1", "0.0.0.0"])
        func theHostCheckRunsAlsoWithAToken(listen: String) async throws {
            let token = AccessToken.generate()
            let test = try TestServer(listen: listen, token: token)
            for path in ["/", "/state", "/snapshot", "/stream"] {
                let rebound = try await test.connect().request(
                    "GET", path, headers: ["Host": "evil.example:\(test.port)", "Authorization": "Bearer \(token.value)"])
                #expect(rebound.status == 403, "\(path)")
                #expect(rebound.errorMessage?.contains("evil.example") == true)
            }
            let own = try await test.connect().request("GET", "/state", headers: ["Authorization": "Bearer \(token.value)"])
            #expect(own.status == 200)
        }

        @Test func everyAnswerForbidsFraming() async throws {
            let test = try TestServer(token: AccessToken.generate())
            for (path, status) in [("/", 200), ("/state", 401), ("/nowhere", 401), ("/%zz", 400)] {
                let response = try await test.connect().request("GET", path)
                #expect(response.status == status)
                #expect(response.headers["content-security-policy"] == "frame-ancestors 'none'", "\(path)")
            }
            let open = try TestServer()
            let stream = try open.connect()
            try stream.send("GET /stream HTTP/1.1\r\nHost: \(stream.host)\r\n\r\n")
            #expect(try await stream.readHead().headers["content-security-policy"] == "frame-ancestors 'none'")
        }

        @Test(arguments: [
            (nil, 415, "the request body has no Content-Type — send the JSON with Content-Type: application/json"),
            ("text/plain", 415, "the request body is text/plain, not application/json — send the JSON with Content-Type: application/json"),
            ("application/x-www-form-urlencoded", 415,
             "the request body is application/x-www-form-urlencoded, not application/json — send the JSON with Content-Type: application/json"),
            ("application/json; charset=utf-8", 200, nil), ("Application/JSON", 200, nil),
        ] as [(String?, Int, String?)])
        func jsonBodiesMustBeSentAsJSON(contentType: String?, status: Int, message: String?) async throws {
            let test = try TestServer()
            let headers = contentType.map { ["Content-Type": $0] } ?? [:]
            let response = try await test.connect().request("POST", "/api/exposure", headers: headers, body: Data(#"{"bias":1}"#.utf8))
            #expect(response.status == status)
            #expect(response.errorMessage == message)
            #expect(test.app.commands == (status == 200 ? ["exposure bias(1.0)"] : []))
        }

        @Test func theURLNamesAnAddressOtherMachinesCanOpen() throws {
            let wildcard = try TestServer(listen: "0.0.0.0")
            let reachable = InterfaceAddress.all().filter { !$0.isIPv6 && !$0.isLoopback && !$0.isLinkLocal }.map(\.host)
            let expected = reachable.isEmpty ? ["127.0.0.1"] : reachable
            #expect(wildcard.server.urls == expected.map { "http://\($0):\(wildcard.port)/" })
            #expect(!wildcard.server.url.contains("0.0.0.0"))
            let loopback = try TestServer()
            #expect(loopback.server.urls == ["http://127.0.0.1:\(loopback.port)/"])
        }
    }
}
