import Testing
@testable import HTTPServer

@Suite struct RequestTargetTests {
    @Test func decodesPathAndQuery() throws {
        let target = try RequestTarget("/library/a%20b?token=12%2B3&lang=zh&flag&q=a+b")
        #expect(target.path == "/library/a b")
        #expect(target.query == ["token": "12+3", "lang": "zh", "flag": "", "q": "a b"])
    }

    @Test(arguments: [
        "/../etc/passwd", "/library/../../etc/passwd", "/%2e%2e/etc/passwd", "/library/%2E%2E%2Fsecret",
        "/library/..%2f..%2fetc", "/./state", "/state%00.json", "/library/1%00", "/a\\..\\b", "/%zz", "/%4",
        "/%ff%fe", "state",
    ])
    func refusesTraversalAndMalformedTargets(raw: String) {
        #expect(throws: HTTPError.self) { try RequestTarget(raw) }
        do {
            _ = try RequestTarget(raw)
        } catch {
            #expect(error.status == .badRequest)
            #expect(!error.message.isEmpty)
        }
    }

    /// Found by the request-target fuzz harness (Fuzz/Regressions/request-target): a combining mark
    /// after "/" or "\\" makes one Character of the two, which hid the separator from a check on
    /// Characters while the bytes still held a ".." segment or a backslash.
    @Test(arguments: ["/../%CC%A3", "/library/..%2F%CC%A3", "/a\\%CC%A3"])
    func refusesSeparatorsJoinedToCombiningMarks(raw: String) {
        #expect(throws: HTTPError.self) { try RequestTarget(raw) }
    }

    @Test func namesTheProblemInTheMessage() {
        #expect(throws: HTTPError.badRequest("path \"/../x\" has a \"..\" segment — paths may not leave or name their directory")) {
            try RequestTarget("/%2e%2e/x")
        }
        #expect(throws: HTTPError.badRequest("path \"/state%00\" contains NUL (%00) — remove it")) {
            try RequestTarget("/state%00")
        }
    }

    @Test func allowsDotsInsideNames() throws {
        #expect(try RequestTarget("/library/photo..jpg").path == "/library/photo..jpg")
        #expect(try RequestTarget("/.well-known/x").path == "/.well-known/x")
    }
}
