import Foundation
import Testing
@testable import HTTPServer

@Suite struct AccessPolicyTests {
    let token = try! AccessToken("0123456789abcdef0123456789abcdef")
    let loopback = try! ListenAddress(host: "127.0.0.1", port: 8080)
    let everywhere = try! ListenAddress(host: "0.0.0.0", port: 8080)

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

    @Test(arguments: ["/state", "/snapshot", "/stream", "/events", "/api/exposure", "/library", "/library/7", "/nowhere"])
    func everyRouteButThePageNeedsTheToken(path: String) {
        let policy = AccessPolicy(token: token, address: everywhere)
        #expect(status(policy, request(path)) == 401)
        #expect(status(policy, request(path, headers: ["Authorization": "Bearer nope"])) == 403)
        #expect(status(policy, request(path, headers: ["Authorization": "Basic \(token.value)"])) == 403)
        #expect(status(policy, request(path, headers: ["Authorization": "Bearer \(token.value)"])) == 200)
        #expect(status(policy, request(path, cookies: [AccessPolicy.cookieName: token.value])) == 200)
        #expect(status(policy, request(path, cookies: [AccessPolicy.cookieName: "nope"])) == 403)
        #expect(status(policy, request(path, query: ["token": token.value])) == 401, "?token= only opens the page")
    }

    @Test func thePageAloneIsServedWithoutTheToken() {
        let policy = AccessPolicy(token: token, address: everywhere)
        #expect(status(policy, request("/")) == 200)
        #expect(status(policy, request("/", method: .head)) == 200)
        #expect(status(policy, request("/", query: ["token": token.value])) == 200)
        #expect(status(policy, request("/", query: ["token": "nope"])) == 403)
        #expect(status(policy, request("/", method: .post)) == 401)
    }

    @Test func pageWithTheRightTokenSetsAStrictHttpOnlyCookie() {
        let policy = AccessPolicy(token: token, address: loopback)
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
        let policy = AccessPolicy(token: token, address: loopback)
        let withToken = headers.merging(["Authorization": "Bearer \(token.value)"]) { $1 }
        #expect(status(policy, request("/api/exposure", method: .post, headers: withToken)) == expected)
        #expect(status(policy, request("/state", headers: withToken)) == 200)
    }

    /// With or without a token: a token does not make a rebinding page's requests acceptable.
    @Test(arguments: [("127.0.0.1:8080", 200), ("localhost:8080", 200), ("[::1]:8080", 200), ("127.0.0.2", 200), ("evil.example:8080", 403),
                      ("192.168.1.4:8080", 403)])
    func aLoopbackListenerServesLoopbackHostsOnly(host: String, expected: Int) {
        #expect(status(AccessPolicy(token: nil, address: loopback), request("/state", headers: ["Host": host])) == expected)
        let withToken = ["Host": host, "Authorization": "Bearer \(token.value)"]
        #expect(status(AccessPolicy(token: token, address: loopback), request("/state", headers: withToken)) == expected)
        #expect(status(AccessPolicy(token: token, address: loopback), request("/", headers: ["Host": host])) == expected)
    }

    @Test func aNetworkListenerServesTheMachinesNamesAndAddressesOnly() throws {
        let policy = AccessPolicy(token: token, address: everywhere)
        func status(host: String) -> Int {
            self.status(policy, request("/state", headers: ["Host": host, "Authorization": "Bearer \(token.value)"]))
        }
        var buffer = [CChar](repeating: 0, count: 256)
        try #require(gethostname(&buffer, buffer.count) == 0)
        let hostName = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let addresses = InterfaceAddress.all()
        #expect(addresses.contains { $0.isLoopback && $0.host == "127.0.0.1" })
        for address in addresses {
            #expect(status(host: address.isIPv6 ? "[\(address.host)]:8080" : "\(address.host):8080") == 200, "\(address)")
        }
        #expect(status(host: "\(hostName.uppercased()):8080") == 200)
        #expect(status(host: "localhost:8080") == 200)
        #expect(status(host: "0.0.0.0:8080") == 200, "the exact listen address")
        #expect(status(host: "evil.example:8080") == 403)
        #expect(status(host: "\(hostName).evil.example") == 403)
        #expect(status(host: "203.0.113.9:8080") == 403)
        let refusal = #expect(throws: HTTPError.self) { try policy.admit(request("/", headers: ["Host": "evil.example"])) }
        #expect(refusal?.message == "host evil.example is not an address or name of this server — open the URL that camerasun serve printed")
    }
}
