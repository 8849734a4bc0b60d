import Foundation

/// The viewfinder's routes (CLI.md, "Viewfinder HTTP API") on a `ViewfinderBackend`: the page,
/// the MJPEG preview and the SSE events from their feeds (which the camera side publishes into),
/// `/state` and `/snapshot`, and the `/api/*` controls. Controls that change settings answer the
/// new `/state`.
public struct ViewfinderRoutes: Sendable {
    public let backend: any ViewfinderBackend
    /// The HTML served at `/`: `ViewfinderPage` unless a test gives another.
    public let page: Data
    public let preview: PreviewFeed
    public let events: EventFeed

    public init(backend: any ViewfinderBackend, page: Data = ViewfinderPage.data, preview: PreviewFeed, events: EventFeed) {
        self.backend = backend
        self.page = page
        self.preview = preview
        self.events = events
    }

    /// The router serving these routes.
    public func router() -> Router {
        let backend = backend
        let page = page
        let preview = preview
        let events = events
        var router = Router()
        router.add("GET", "/") { _ in HTTPResponse(contentType: "text/html; charset=utf-8", bytes: page) }
        router.add("GET", "/stream") { _ in preview.response() }
        router.add("GET", "/events") { _ in events.response() }
        router.add("GET", "/state") { _ in .json(try await backend.state()) }
        router.add("GET", "/snapshot") { _ in
            var response = HTTPResponse(contentType: "image/jpeg", bytes: try await backend.snapshot())
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        router.add("POST", "/api/exposure") { request in
            try await backend.setExposure(try request.decodeJSON())
            return .json(try await backend.state())
        }
        router.add("POST", "/api/meter") { request in
            try .json(["point": try await backend.meter(try request.decodeJSON())])
        }
        router.add("POST", "/api/lock") { request in
            try await backend.setLocks(try request.decodeJSON())
            return .json(try await backend.state())
        }
        router.add("POST", "/api/zoom") { request in
            try await backend.zoom(try request.decodeJSON())
            return .json(try await backend.state())
        }
        router.add("POST", "/api/metering") { request in
            try await backend.setMetering(try request.decodeJSON())
            return .json(try await backend.state())
        }
        router.add("POST", "/api/photo") { _ in .json(try await backend.takePhoto()) }
        return router
    }
}
