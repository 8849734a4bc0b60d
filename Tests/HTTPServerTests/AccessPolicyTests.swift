import Testing
@testable import HTTPServer

@Suite struct AccessPolicyTests {
    let token = try! AccessToken("0123456789abcdef0123456789abcdef")

    func request(
        _ path: String, method: HTTPMethod = .get, query: [String: String] = [:], headers: [String: String] = [:],
        cookies: [String: String] = [:]
    ) -> HTTPRequest {
        let fields = ["Host": "127.0.0.1:8080"].merging(headers) { $1 }.map { (name: $0.key, value: $0.value) }
        return HTTPRequest(method: method, path: path, query: query, headers: HTTPHeaders(fields), cookies: cookies)
    }

    func status(_ policy: AccessPolicy, _ request: HTTPRequest) -> Int {
        do {
            try policy.admit(request)
            return 200
        } catch {
            return error.status.rawValue
        }
    }

    @Test func generatedTokensAre128BitHexAndDistinct() {
        let tokens = (0..<100).map { _ in AccessToken.generate().value }
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.allSatisfy { $0.isHexDigit })
        }
    }

    @Test func tokenMatchesOnlyItself() throws {
        #expect(token.matches("0123456789abcdef0123456789abcdef"))
        #expect(!token.matches("0123456789abcdef0123456789abcdee"))
        #expect(!token.matches("0123456789abcdef0123456789abcde"))
        #expect(!token.matches("0123456789abcdef0123456789abcdef0"))
        #expect(!token.matches(""))
        #expect(!token.description.contains(token.value))
    }

    @Test(arguments: ["short", "has space inside", "semi;colon0", "quote\"quote", String(repeating: "a", count: 257)])
    func refusesTokensThatCannotTravelInACookie(value: String) {
        #expect(throws: HTTPServerError.self) { try AccessToken(value) }
    }

    @Test func tokenIsGeneratedOnlyForNonLoopbackAddresses() throws {
        #expect(AccessPolicy.forListening(on: try ListenAddress(host: "127.0.0.1", port: 0), token: nil).token == nil)
        #expect(AccessPolicy.forListening(on: try ListenAddress(host: "::1", port: 0), token: nil).token == nil)
        #expect(AccessPolicy.forListening(on: try ListenAddress(host: "0.0.0.0", port: 0), token: nil).token?.value.count == 32)
        #expect(AccessPolicy.forListening(on: try ListenAddress(host: "0.0.0.0", port: 0), token: token).token == token)
    }

    @Test func protectedPathsNeedTheToken() {
        let policy = AccessPolicy(token: token)
        #expect(status(policy, request("/api/exposure")) == 401)
        #expect(status(policy, request("/library")) == 401)
        #expect(status(policy, request("/library/7")) == 401)
        #expect(status(policy, request("/api/exposure", headers: ["Authorization": "Bearer nope"])) == 403)
        #expect(status(policy, request("/api/exposure", headers: ["Authorization": "Basic \(token.value)"])) == 403)
        #expect(status(policy, request("/api/exposure", headers: ["Authorization": "Bearer \(token.value)"])) == 200)
        #expect(status(policy, request("/api/exposure", cookies: [AccessPolicy.cookieName: token.value])) == 200)
        #expect(status(policy, request("/api/exposure", cookies: [AccessPolicy.cookieName: "nope"])) == 403)
        #expect(status(policy, request("/state")) == 200)
        #expect(status(policy, request("/", query: ["token": "nope"])) == 403)
    }

    @Test func pageWithTheRightTokenSetsAStrictHttpOnlyCookie() {
        let policy = AccessPolicy(token: token)
        let cookie = policy.responseHeaders(for: request("/", query: ["token": token.value]))["Set-Cookie"]
        #expect(cookie == "camerasun_token=\(token.value); Path=/; HttpOnly; SameSite=Strict")
        #expect(policy.responseHeaders(for: request("/", query: ["token": "nope"])).isEmpty)
        #expect(policy.responseHeaders(for: request("/")).isEmpty)
    }

    @Test(arguments: [
        (["Origin": "http://evil.example"], 403),
        (["Origin": "null"], 403),
        (["Origin": "http://127.0.0.1:9999"], 403),
        (["Sec-Fetch-Site": "cross-site"], 403),
        (["Sec-Fetch-Site": "same-site"], 403),
        (["Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-origin"], 200),
        (["Sec-Fetch-Site": "none"], 200),
        ([:], 200),
    ])
    func crossSitePostsAreRefused(headers: [String: String], expected: Int) {
        let policy = AccessPolicy(token: token)
        let post = request("/api/exposure", method: .post, headers: headers.merging(["Authorization": "Bearer \(token.value)"]) { $1 })
        #expect(status(policy, post) == expected)
        #expect(status(policy, request("/state", headers: headers)) == 200)
    }

    @Test(arguments: [("127.0.0.1:8080", 200), ("localhost:8080", 200), ("[::1]:8080", 200), ("evil.example:8080", 403), ("192.168.1.4:8080", 403)])
    func withoutATokenOnlyLoopbackHostsAreServed(host: String, expected: Int) {
        #expect(status(AccessPolicy(token: nil), request("/state", headers: ["Host": host])) == expected)
    }
}
