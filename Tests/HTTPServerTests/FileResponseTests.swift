import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    /// `HTTPResponse.file` over a real server: the whole file with `Accept-Ranges`, or exactly the
    /// bytes a `Range` asks for as a 206 with `Content-Range`, as `<video>` needs to play and seek.
    @Suite struct FileResponses {
        /// 100 000 bytes, each its index modulo 251, so that any slice is recognisable.
        static let bytes = Data((0..<100_000).map { UInt8($0 % 251) })

        /// A server whose `GET /file` serves `bytes` from a temporary file.
        static func serve(_ test: (RawHTTPConnection) async throws -> Void) async throws {
            try await withScratchDirectory { directory in
                let url = directory.appendingPathComponent("file.bin")
                try bytes.write(to: url)
                var router = Router()
                router.add(.get, "/file") { request in try HTTPResponse.file(at: url, contentType: "video/mp4", range: request.header("Range")) }
                router.add(.get, "/gone") { request in
                    try HTTPResponse.file(at: url.appendingPathExtension("gone"), contentType: "video/mp4", range: request.header("Range"))
                }
                let address = try ListenAddress(host: "127.0.0.1", port: 0)
                let server = try HTTPServer(configuration: HTTPServer.Configuration(address: address), policy: AccessPolicy(token: nil, address: address),
                                            router: router)
                defer { server.stop() }
                try await test(try RawHTTPConnection(port: server.port))
            }
        }

        @Test func theWholeFileSaysItTakesRanges() async throws {
            try await Self.serve { connection in
                let response = try await connection.request("GET", "/file")
                #expect(response.status == 200)
                #expect(response.headers["accept-ranges"] == "bytes")
                #expect(response.headers["content-type"] == "video/mp4")
                #expect(response.headers["content-length"] == "100000")
                #expect(response.headers["content-range"] == nil)
                #expect(response.body == Self.bytes)
            }
        }

        @Test(arguments: [
            ("bytes=0-", 0, 100_000), ("bytes=1000-1999", 1000, 1000), ("bytes=99990-", 99_990, 10), ("bytes=-7", 99_993, 7),
            ("bytes=70000-200000", 70_000, 30_000),
        ])
        func aRangeIsExactlyItsBytes(range: String, offset: Int, length: Int) async throws {
            try await Self.serve { connection in
                let response = try await connection.request("GET", "/file", headers: ["Range": range])
                #expect(response.status == 206)
                #expect(response.headers["content-range"] == "bytes \(offset)-\(offset + length - 1)/100000")
                #expect(response.headers["content-length"] == String(length))
                #expect(response.headers["accept-ranges"] == "bytes")
                #expect(response.body == Self.bytes.subdata(in: offset..<offset + length))
                // The connection stays usable for the next range, as a player's seeks need.
                #expect(try await connection.request("GET", "/file", headers: ["Range": "bytes=5-9"]).body == Self.bytes.subdata(in: 5..<10))
            }
        }

        @Test func aRangePastTheEndIs416AndAMissingFile404() async throws {
            try await Self.serve { connection in
                let past = try await connection.request("GET", "/file", headers: ["Range": "bytes=100000-"])
                #expect(past.status == 416)
                #expect(past.headers["content-range"] == "bytes */100000")
                #expect(past.errorMessage == "Range bytes=100000- is outside the 100000-byte file — ask for bytes 0…99999")
                let gone = try await connection.request("GET", "/gone")
                #expect(gone.status == 404)
            }
        }
    }
}
