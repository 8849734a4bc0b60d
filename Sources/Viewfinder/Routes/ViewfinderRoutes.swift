import Foundation
import HTTPServer

/// The viewfinder's routes (CLI.md, "Viewfinder HTTP API") on a `ViewfinderBackend`: the page,
/// the MJPEG preview (`?overlay=` picks the feed with those overlays drawn) and the SSE events from
/// their feeds (which the camera side publishes into), `/state` and `/snapshot`, the `/api/*`
/// controls and the photo library. Controls that change settings answer the new `/state`.
public struct ViewfinderRoutes: Sendable {
    public let backend: any ViewfinderBackend
    /// The HTML served at `/`: `ViewfinderPage` unless a test gives another.
    public let page: Data
    public let previews: PreviewFeeds
    public let events: EventFeed

    public init(backend: any ViewfinderBackend, page: Data = ViewfinderPage.data, previews: PreviewFeeds, events: EventFeed) {
        self.backend = backend
        self.page = page
        self.previews = previews
        self.events = events
    }

    /// The router serving these routes.
    public func router() -> Router {
        let backend = backend
        let page = page
        let previews = previews
        let events = events
        var router = Router()
        router.add(.get, "/") { _ in HTTPResponse(contentType: "text/html; charset=utf-8", bytes: page) }
        router.add(.get, "/stream") { request in
            previews.feed(for: try PreviewOverlays(query: request.query["overlay"])).response()
        }
        router.add(.get, "/events") { _ in events.response() }
        router.add(.get, "/state") { _ in .json(try await backend.state()) }
        router.add(.get, "/snapshot") { request in
            let overlays = try PreviewOverlays(query: request.query["overlay"])
            var response = HTTPResponse(contentType: "image/jpeg", bytes: try await backend.snapshot(overlays: overlays))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        router.addControl("/api/exposure", on: backend) { try await $0.setExposure($1) }
        router.add(.post, "/api/meter") { request in
            try .json(["point": try await backend.meter(try request.decodeJSON())])
        }
        router.addControl("/api/lock", on: backend) { try await $0.setLocks($1) }
        router.addControl("/api/zoom", on: backend) { try await $0.zoom($1) }
        router.addControl("/api/metering", on: backend) { try await $0.setMetering($1) }
        router.addControl("/api/flicker", on: backend) { try await $0.setFlicker($1) }
        router.addControl("/api/whitebalance", on: backend) { try await $0.setWhiteBalance($1) }
        router.addControl("/api/focus", on: backend) { try await $0.setFocus($1) }
        router.addControl("/api/torch", on: backend) { try await $0.setTorch($1) }
        router.addControl("/api/hdr", on: backend) { try await $0.setHDR($1) }
        router.add(.post, "/api/photo") { request in
            // A bare POST (the API's first form) is a photo without flash.
            .json(try await backend.takePhoto(request.body.isEmpty ? PhotoCommand() : try request.decodeJSON()))
        }
        router.add(.get, "/library") { _ in .json(try await backend.library()) }
        router.add(.get, "/library/:id") { request in
            let file = try await backend.libraryFile(id: request.pathParameters["id"] ?? "")
            var response = HTTPResponse(contentType: file.contentType, bytes: file.data)
            response.headers["Cache-Control"] = "private, max-age=31536000, immutable"
            return response
        }
        return router
    }
}

extension Router {
    /// `POST path`: decodes the body as `Command`, applies it with `apply` and answers the new `/state`.
    fileprivate mutating func addControl<Command: Decodable & Sendable>(
        _ path: String, on backend: any ViewfinderBackend, _ apply: @escaping @Sendable (any ViewfinderBackend, Command) async throws -> Void
    ) {
        add(.post, path) { request in
            try await apply(backend, try request.decodeJSON())
            return .json(try await backend.state())
        }
    }
}
