import Testing
@testable import HTTPServer

/// `Range` fields against a 1000-byte file (RFC 9110 §14.1.2): one range is served, anything the
/// server may ignore is the whole file (nil), and a range past the end is a 416 naming the size.
@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-", ByteRange(offset: 0, length: 1000)),
        ("bytes=0-0", ByteRange(offset: 0, length: 1)),
        ("bytes=100-199", ByteRange(offset: 100, length: 100)),
        ("bytes=990-5000", ByteRange(offset: 990, length: 10)),
        ("bytes=-10", ByteRange(offset: 990, length: 10)),
        ("bytes=-5000", ByteRange(offset: 0, length: 1000)),
        (" BYTES=5-6 ", ByteRange(offset: 5, length: 2)),
    ])
    func oneRangeIsResolvedAgainstTheSize(header: String, expected: ByteRange) throws {
        #expect(try ByteRange.requested(by: header, size: 1000) == expected)
    }

    @Test(arguments: [nil, "", "items=0-5", "bytes=0-5,10-20", "bytes=5-1", "bytes=a-b", "bytes=+5-", "bytes=-", "bytes=5"])
    func anythingElseIsTheWholeFile(header: String?) throws {
        #expect(try ByteRange.requested(by: header, size: 1000) == nil)
    }

    @Test(arguments: ["bytes=1000-", "bytes=2000-3000", "bytes=-0"])
    func aRangePastTheEndIs416NamingTheSize(header: String) {
        let error = #expect(throws: HTTPError.self) { try ByteRange.requested(by: header, size: 1000) }
        #expect(error?.status == .rangeNotSatisfiable)
        #expect(error?.headers["Content-Range"] == "bytes */1000")
        #expect(error?.message == "Range \(header) is outside the 1000-byte file — ask for bytes 0…999")
    }
}
