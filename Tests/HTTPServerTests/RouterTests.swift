import Foundation
import HTTPServer
import Testing

@Suite("Router: paths into segments")
struct RouterTests {
    /// A router whose one route answers with the `:id` it matched.
    static let router: Router = {
        var router = Router()
        router.add(.get, "/library/:id") { request in
            HTTPResponse(contentType: "text/plain", bytes: Data((request.pathParameters["id"] ?? "").utf8))
        }
        return router
    }()

    @Test("A slash divides segments even when a combining mark follows it, as RequestTarget reads the bytes")
    func splitsOnTheSlashByte() async throws {
        let response = await Self.router.respond(to: HTTPRequest(method: .get, path: "/library/\u{0323}3"))
        #expect(response.status == .ok)
        guard case .bytes(let body) = response.body else { throw CocoaError(.coderInvalidValue) }
        #expect(String(decoding: body, as: UTF8.self) == "\u{0323}3")
    }

    @Test("A path with another number of segments is a 404")
    func otherShapesAreNotFound() async {
        #expect(await Self.router.respond(to: HTTPRequest(method: .get, path: "/library/3/4")).status == .notFound)
        #expect(await Self.router.respond(to: HTTPRequest(method: .get, path: "/library/")).status == .notFound)
    }
}
