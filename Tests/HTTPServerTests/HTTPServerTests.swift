import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    @Suite struct HTTP {
        @Test func picksAFreePortAndServesThePage() async throws {
            let test = try TestServer()
            #expect(test.port != 0)
            #expect(test.server.url == "http://127.0.0.1:\(test.port)/")
            let response = try await test.connect().request("GET", "/", headers: ["Host": test.host])
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.body == TestApp.page)
        }

        @Test func keepsTheConnectionAliveBetweenRequests() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let first = try await connection.request("GET", "/state", headers: ["Host": test.host])
            #expect(first.status == 200)
            #expect(first.headers["connection"]?.lowercased() != "close")
            let second = try await connection.request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json"], body: Data(#"{"bias":0.5}"#.utf8))
            #expect(second.status == 200)
            #expect(second.text == #"{"aeState":"converged","evBias":0.5}"#)
            let third = try await connection.request("GET", "/snapshot", headers: ["Host": test.host])
            #expect(third.body == TestApp.snapshot)
            #expect(test.server.connectionCount == 1)
            #expect(test.app.commands == ["exposure bias(0.5)"])
        }

        /// Each bad request gets its status and a JSON error; the next request on a new connection works.
        @Test(arguments: [
            ("GET", "/nowhere", "", 404), ("DELETE", "/state", "", 405), ("POST", "/api/exposure", #"{"bias":"#, 400),
            ("POST", "/api/exposure", #"{"bias":12}"#, 400), ("GET", "/../etc/passwd", "", 400),
            ("GET", "/%2e%2e/%2e%2e/etc/passwd", "", 400), ("GET", "/library/..%2f..%2fetc%2fpasswd", "", 400),
            ("GET", "/state%00.json", "", 400), ("GET", "/%zz", "", 400),
        ])
        func refusesBadRequestsAndKeepsServing(method: String, target: String, body: String, status: Int) async throws {
            let test = try TestServer()
            let connection = try test.connect()
            let response = try await connection.request(method, target, headers: ["Content-Type": "application/json"], body: body.isEmpty ? nil : Data(body.utf8))
            #expect(response.status == status)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.errorMessage?.isEmpty == false)
            if status == 405 { #expect(response.headers["allow"] == "GET") }
            if target == "/api/exposure", body.contains("12") {
                #expect(response.errorMessage == "EV bias 12 EV is outside the supported range -8…8 EV — choose a value in that range")
            }
            // A request refused before its body (a bad target here) closes its connection.
            #expect(try await test.connect().request("GET", "/state", headers: ["Host": test.host]).status == 200)
        }

        @Test func refusesAHugeBodyBeforeReadingIt() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            try connection.send("POST /api/exposure HTTP/1.1\r\nHost: \(test.host)\r\nContent-Length: 10000000\r\n\r\n")
            try connection.send(Data(repeating: 0x20, count: 1000))
            let response = try await connection.readResponse()
            #expect(response.status == 413)
            #expect(response.errorMessage == "request body of 10000000 bytes is over the limit of 65536 bytes — send less")
            #expect(try await test.connect().request("GET", "/state", headers: ["Host": test.host]).status == 200)
        }

        /// libmicrohttpd itself reads the body by the first Content-Length and ignores the rest.
        @Test(arguments: [("10", "10"), ("10", "3"), ("3", "10")])
        func refusesMoreThanOneContentLength(first: String, second: String) async throws {
            let test = try TestServer()
            let connection = try test.connect()
            try connection.send("POST /api/exposure HTTP/1.1\r\nHost: \(test.host)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(first)\r\ncontent-length: \(second)\r\n\r\n" + #"{"bias":1}"#)
            let response = try await connection.readResponse()
            #expect(response.status == 400)
            #expect(response.errorMessage == "the request has 2 Content-Length headers (\(first), \(second)) — send exactly one")
            #expect(try await connection.isClosedByServer(), "what follows the headers is not read as another request")
            #expect(test.app.commands.isEmpty)
            #expect(try await test.connect().request("GET", "/state").status == 200)
        }

        @Test func refusesAChunkedBodyThatGrowsOverTheLimit() async throws {
            let test = try TestServer(maxBodyBytes: 1000)
            let connection = try test.connect()
            try connection.send("POST /api/exposure HTTP/1.1\r\nHost: \(test.host)\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 { try connection.send("200\r\n" + String(repeating: " ", count: 512) + "\r\n") }
            try connection.send("0\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.status == 413)
            #expect(response.errorMessage == "request body of 1536 bytes is over the limit of 1000 bytes — send less")
            #expect(try await test.connect().request("GET", "/state", headers: ["Host": test.host]).status == 200)
        }

        @Test func acceptsABodyAtTheLimit() async throws {
            let test = try TestServer(maxBodyBytes: 1000)
            let body = #"{"bias":1}"# + String(repeating: " ", count: 990)
            let response = try await test.connect().request("POST", "/api/exposure", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(response.status == 200)
        }

        @Test func tokenGuardsTheAPIAndTheState() async throws {
            let token = AccessToken.generate()
            let test = try TestServer(token: token)
            let body = Data(#"{"bias":1}"#.utf8)
            let missing = try await test.connect().request("POST", "/api/exposure", headers: ["Content-Type": "application/json"], body: body)
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == "Bearer")
            #expect(missing.errorMessage?.contains("needs the token") == true)
            let wrong = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json", "Authorization": "Bearer 0000"], body: body)
            #expect(wrong.status == 403)
            let right = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token.value)"], body: body)
            #expect(right.status == 200)
            #expect(try await test.connect().request("GET", "/state", headers: ["Host": test.host]).status == 401)
            #expect(test.app.commands == ["exposure bias(1.0)"])
        }

        @Test func thePageSetsTheTokenCookieThatTheAPIAccepts() async throws {
            let token = AccessToken.generate()
            let test = try TestServer(token: token)
            let page = try await test.connect().request("GET", "/?token=\(token.value)&lang=zh", headers: ["Host": test.host])
            #expect(page.status == 200)
            let cookie = try #require(page.headers["set-cookie"])
            #expect(cookie == "camerasun_token=\(token.value); Path=/; HttpOnly; SameSite=Strict")
            let cookiePair = String(cookie.prefix { $0 != ";" })
            let control = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json", "Cookie": cookiePair, "Origin": "http://\(test.host)"],
                body: Data(#"{"bias":0}"#.utf8))
            #expect(control.status == 200)
            let wrongCookie = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json", "Cookie": "camerasun_token=0000"], body: Data(#"{"bias":0}"#.utf8))
            #expect(wrongCookie.status == 403)
            #expect(try await test.connect().request("GET", "/?token=0000", headers: ["Host": test.host]).status == 403)
        }

        @Test(arguments: [["Origin": "http://evil.example"], ["Sec-Fetch-Site": "cross-site"], ["Host": "evil.example"]])
        func refusesCrossSiteRequestsAndKeepsServing(headers: [String: String]) async throws {
            let test = try TestServer()
            let response = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: Data(#"{"bias":2}"#.utf8))
            #expect(response.status == 403)
            #expect(response.errorMessage?.isEmpty == false)
            #expect(test.app.commands.isEmpty)
            let sameOrigin = try await test.connect().request(
                "POST", "/api/exposure", headers: ["Content-Type": "application/json", "Origin": "http://\(test.host)", "Sec-Fetch-Site": "same-origin"],
                body: Data(#"{"bias":2}"#.utf8))
            #expect(sameOrigin.status == 200)
        }

        @Test(arguments: [
            ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("0.0.0.0:0", "0.0.0.0", 0, false), ("[::1]:9000", "::1", 9000, true),
            ("localhost:80", "localhost", 80, true),
        ])
        func parsesListenAddresses(text: String, host: String, port: Int, loopback: Bool) throws {
            let address = try ListenAddress(parsing: text)
            #expect(address.host == host)
            #expect(address.port == UInt16(port))
            #expect(address.isLoopback == loopback)
            #expect(address.description == text)
        }

        @Test(arguments: ["8080", "127.0.0.1", "127.0.0.1:http", "127.0.0.1:70000", ":8080", "[::1]8080"])
        func refusesMalformedListenAddresses(text: String) {
            #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: text) }
        }

        @Test func refusesAnAddressInUseNamingIt() async throws {
            let test = try TestServer()
            let address = try ListenAddress(host: "127.0.0.1", port: test.port)
            let error = #expect(throws: HTTPServerError.self) {
                try HTTPServer(configuration: .init(address: address), policy: AccessPolicy(token: nil, address: address), router: Router())
            }
            #expect(error?.message == "cannot listen on 127.0.0.1:\(test.port): Address already in use — choose another port (0 picks a free one) or address")
        }
    }
}
