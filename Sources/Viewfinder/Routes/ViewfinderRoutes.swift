import Foundation
import HTTPServer

/// The viewfinder's routes (docs/CLI.md, "Viewfinder HTTP API") on a `ViewfinderBackend`: the page,
/// the MJPEG preview (`?overlay=` picks the feed with those overlays drawn) and the SSE events from
/// their feeds (which the camera side publishes into), `/state` and `/snapshot`, the `/api/*`
/// controls, recording, the live stream, the library (movies in ranges, for `<video>`) and the user's sounds.
/// Controls that change settings answer the new `/state`.
public struct ViewfinderRoutes: Sendable {
    public let backend: any ViewfinderBackend
    /// The HTML served at `/`: `ViewfinderPage` unless a test gives another.
    public let page: Data
    public let previews: PreviewFeeds
    public let events: EventFeed
    /// Where `/sounds/NAME` finds the user's sounds.
    public let sounds: SoundFolder

    public init(backend: any ViewfinderBackend, page: Data = ViewfinderPage.data, previews: PreviewFeeds, events: EventFeed,
                sounds: SoundFolder = .standard()) {
        self.backend = backend
        self.page = page
        self.previews = previews
        self.events = events
        self.sounds = sounds
    }

    /// The router serving these routes.
    public func router() -> Router {
        let backend = backend
        let page = page
        let previews = previews
        let events = events
        let sounds = sounds
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
        router.addControl("/api/shadows", on: backend) { try await $0.setShadows($1) }
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
        router.addControl("/api/raw", on: backend) { try await $0.setRaw($1) }
        router.addControl("/api/camera", on: backend) { try await $0.switchCamera($1) }
        router.add(.post, "/api/photo") { request in
            // A bare POST (the API's first form) is a photo without flash.
            .json(try await backend.takePhoto(request.body.isEmpty ? PhotoCommand() : try request.decodeJSON()))
        }
        router.add(.post, "/api/record") { request in
            switch try request.decodeJSON(RecordingCommand.self) {
            case .start(let maxDuration, let watermark): .json(try await backend.startRecording(maxDuration: maxDuration, watermark: watermark))
            case .stop: .json(try await backend.stopRecording())
            }
        }
        router.add(.post, "/api/live") { request in
            switch try request.decodeJSON(LiveCommand.self) {
            case .start(let url, let bitrate): .json(try await backend.startLive(url: url, bitrateKbps: bitrate))
            case .stop: .json(try await backend.stopLive())
            }
        }
        router.add(.get, "/library") { _ in .json(try await backend.library()) }
        router.add(.get, "/library/:id") { request in
            try Self.serve(try await backend.libraryFile(id: request.pathParameters["id"] ?? ""), to: request, cacheControl: Self.immutable)
        }
        router.add(.get, "/library/:id/thumbnail") { request in
            try Self.serve(try await backend.libraryThumbnail(id: request.pathParameters["id"] ?? ""), to: request, cacheControl: Self.immutable)
        }
        router.add(.get, "/sounds/:name") { request in
            let name = request.pathParameters["name"] ?? ""
            guard let file = sounds.file(named: name) else {
                throw HTTPError.notFound("no sound \"\(name)\" in \(sounds.directory.path) — the page synthesises it")
            }
            return try Self.serve(file, to: request, cacheControl: "no-cache")
        }
        return router
    }
}

extension ViewfinderRoutes {
    /// How a catalogued file is cached: its bytes never change under its id.
    fileprivate static let immutable = "private, max-age=31536000, immutable"

    /// `file`, in the range `request` asks for, cached as `cacheControl` says.
    fileprivate static func serve(_ file: ServedFile, to request: HTTPRequest, cacheControl: String) throws -> HTTPResponse {
        var response = try HTTPResponse.file(at: file.url, contentType: file.contentType, range: request.header("Range"))
        response.headers["Cache-Control"] = cacheControl
        return response
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
