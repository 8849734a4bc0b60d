import CameraCore
import CameraTestSupport
import Foundation
@testable import HTTPServer

/// The routes of a small app for the server's tests, shaped like the viewfinder's: a page, a JSON
/// `/state` that `POST /api/exposure {"bias":EV}` changes, a `/snapshot`, an MJPEG `/stream`, SSE
/// `/events`, and a `POST /api/photo` that answers once `photoGate` opens (open unless a test holds
/// photos in flight). It records the commands it runs.
final class TestApp: Sendable {
    static let page = Data("<!doctype html><title>CameraSun</title>".utf8)
    static let snapshot = Data("a snapshot".utf8)

    let preview = MJPEGFeed()
    let events = EventFeed()
    let photoGate = Gate()
    private let bias = Locked(0.0)
    private let recorded = Locked<[String]>([])

    init(holdingPhotos: Bool = false) {
        if !holdingPhotos { photoGate.open() }
    }

    /// The commands run so far, e.g. `exposure bias(0.5)`.
    var commands: [String] { recorded.withLock { $0 } }

    private struct Exposure: Decodable {
        let bias: Double
    }

    func router() -> Router {
        var router = Router()
        router.add(.get, "/") { _ in HTTPResponse(contentType: "text/html; charset=utf-8", bytes: Self.page) }
        router.add(.get, "/state") { [self] _ in state() }
        router.add(.get, "/snapshot") { _ in HTTPResponse(contentType: "image/jpeg", bytes: Self.snapshot) }
        router.add(.get, "/stream") { [preview] _ in preview.response() }
        router.add(.get, "/events") { [events] _ in events.response() }
        router.add(.post, "/api/exposure") { [self] request in
            let value = try ValueOutOfRangeError.check(try request.decodeJSON(Exposure.self).bias, in: -8...8, setting: "EV bias", unit: "EV")
            bias.withLock { $0 = value }
            record("exposure bias(\(value))")
            return state()
        }
        router.add(.post, "/api/photo") { [self] _ in
            record("photo")
            await photoGate.pass()
            return .json(Data(#"{"id":"1"}"#.utf8))
        }
        return router
    }

    private func state() -> HTTPResponse {
        .json(Data(#"{"aeState":"converged","evBias":\#(bias.withLock { $0 })}"#.utf8))
    }

    private func record(_ command: String) {
        recorded.withLock { $0.append(command) }
    }
}

/// A server on a free port of 127.0.0.1 (or `listen`) with the `TestApp` routes.
struct TestServer {
    let server: HTTPServer
    let app: TestApp

    init(
        listen: String = "127.0.0.1", token: AccessToken? = nil, maxBodyBytes: Int = 64 * 1024, connectionLimit: Int = 64,
        idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(10),
        holdingPhotos: Bool = false
    ) throws {
        app = TestApp(holdingPhotos: holdingPhotos)
        let address = try ListenAddress(host: listen, port: 0)
        let configuration = HTTPServer.Configuration(
            address: address, connectionLimit: connectionLimit, maxBodyBytes: maxBodyBytes, idleTimeout: idleTimeout,
            headerTimeout: headerTimeout, requestTimeout: requestTimeout)
        server = try HTTPServer(configuration: configuration, policy: AccessPolicy(token: token, address: address), router: app.router())
    }

    var port: UInt16 { server.port }
    var preview: MJPEGFeed { app.preview }
    var events: EventFeed { app.events }

    func connect() throws -> RawHTTPConnection {
        try RawHTTPConnection(port: port)
    }

    /// The `Host` header a browser on this machine sends.
    var host: String { "127.0.0.1:\(port)" }
}
