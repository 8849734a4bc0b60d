import Testing
@testable import HTTPServer

@Suite struct HTTPHeadersTests {
    @Test func namesMatchInAnyCaseAndRepeatsJoinInOrder() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Accept": "text/html"]
        headers.add("accept", "image/jpeg")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["ACCEPT"] == "text/html, image/jpeg")
        #expect(headers.values(for: "Accept") == ["text/html", "image/jpeg"])
        #expect(headers["Missing"] == nil)
        #expect(headers.map(\.name) == ["Content-Type", "Accept", "accept"])
    }

    @Test func settingReplacesEveryFieldOfTheNameInPlace() {
        var headers: HTTPHeaders = ["A": "1", "Set-Cookie": "x=1", "B": "2"]
        headers.add("set-cookie", "y=2")
        headers["SET-COOKIE"] = "z=3"
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["A=1", "SET-COOKIE=z=3", "B=2"])
        headers["a"] = nil
        #expect(headers.names == ["SET-COOKIE", "B"])
        headers["C"] = "4"
        #expect(headers.names == ["SET-COOKIE", "B", "C"])
    }

    @Test func mergeReplacesNamesTheOtherHas() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Cache-Control": "no-store"]
        headers.merge(["content-type": "application/json", "Allow": "GET"])
        #expect(headers == ["Cache-Control": "no-store", "content-type": "application/json", "Allow": "GET"])
        #expect(headers.count == 3)
    }
}
