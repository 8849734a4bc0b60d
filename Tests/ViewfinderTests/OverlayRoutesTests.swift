import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// The routes the camera side added for issue 7: overlay feeds, snapshots with overlays, the library.
    @Suite struct OverlaysAndLibrary {
        /// A server whose preview feeds the test publishes into directly.
        struct Server {
            let backend: FakeBackend
            let previews = PreviewFeeds()
            let server: HTTPServer

            init() throws {
                backend = try FakeBackend()
                let routes = ViewfinderRoutes(backend: backend, page: TestServer.page, previews: previews, events: EventFeed())
                let address = try ListenAddress(host: "127.0.0.1", port: 0)
                server = try HTTPServer(configuration: HTTPServer.Configuration(address: address),
                                        policy: AccessPolicy(token: nil, address: address), router: routes.router())
            }
        }

        @Test func anOverlayQueryPicksItsOwnFeed() async throws {
            let test = try Server()
            let plain = test.previews.feed(for: []), both = test.previews.feed(for: [.zebra, .sun])
            #expect(plain !== both && both === test.previews.feed(for: [.sun, .zebra]))
            let connection = try RawHTTPConnection(port: test.server.port)
            try connection.send("GET /stream?overlay=sun,zebra HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await connection.readHead().status == 200)
            #expect(try await eventually { both.clientCount == 1 })
            #expect(plain.clientCount == 0 && test.previews.clientCount == 1)
            #expect(test.previews.active.map(\.overlays) == [[.zebra, .sun]], "only watched feeds are encoded")
            plain.publish(jpeg: SyntheticJPEG.make(paddedTo: 500), frameNumber: 1)
            both.publish(jpeg: SyntheticJPEG.make(), frameNumber: 2)
            #expect(try await connection.readLine() == "--\(both.boundary)")
            var headers: [String] = []
            while case let line = try await connection.readLine(), !line.isEmpty { headers.append(line) }
            #expect(headers.contains("X-Frame-Number: 2"), "\(headers)")
            #expect(headers.contains("Content-Length: \(SyntheticJPEG.make().count)"), "\(headers)")
        }

        @Test func unknownOverlaysAreRefused() async throws {
            let test = try Server()
            let connection = try RawHTTPConnection(port: test.server.port)
            for target in ["/stream?overlay=glow", "/snapshot?overlay=zebra,glow"] {
                let response = try await connection.request("GET", target)
                #expect(response.status == 400)
                #expect(response.errorMessage?.contains("\"glow\" is unknown") == true, "\(response.text)")
            }
        }

        @Test func snapshotsPassTheirOverlaysToTheCamera() async throws {
            let test = try Server()
            let connection = try RawHTTPConnection(port: test.server.port)
            for target in ["/snapshot", "/snapshot?overlay=zebra", "/snapshot?overlay=sun,zebra"] {
                let response = try await connection.request("GET", target)
                #expect(response.status == 200 && response.body == SyntheticJPEG.make())
            }
            #expect(test.backend.snapshotOverlays.withLock { $0 } == [[], .zebra, [.zebra, .sun]])
        }

        @Test func theLibraryListsAndServesByID() async throws {
            let test = try Server()
            let connection = try RawHTTPConnection(port: test.server.port)
            let listing = try await connection.request("GET", "/library")
            #expect(listing.status == 200 && listing.text == #"{"assets":[{"id":"1"}]}"#)
            let file = try await connection.request("GET", "/library/1")
            #expect(file.status == 200 && file.headers["content-type"] == "image/jpeg" && file.body == SyntheticJPEG.make())
            #expect(try await connection.request("GET", "/library/2").status == 404)
            #expect(try await connection.request("POST", "/library/1").status == 405)
        }
    }
}
