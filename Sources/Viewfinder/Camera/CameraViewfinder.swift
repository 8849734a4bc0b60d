import CameraCapture
import CameraCore
import Foundation
import HTTPServer
import PhotoLibrary

/// A camera served to browsers: a `CaptureSession` with a preview and a photo output, the preview
/// pipeline (MJPEG per overlay combination), the `/events` publisher and the HTTP server with the
/// viewfinder's routes — what `camerasun serve` runs.
///
/// ```swift
/// let viewfinder = try await CameraViewfinder.start(device: camera, library: library,
///                                                   configuration: .init(address: ListenAddress()))
/// print(viewfinder.url)
/// try await viewfinder.run()      // until cancelled
/// await viewfinder.stop()
/// ```
public final class CameraViewfinder: Sendable {
    /// Where to listen and how large a preview to serve.
    public struct Configuration: Sendable {
        public var address: ListenAddress
        /// The token every request but the page needs; generated when nil and the address is not
        /// loopback (`AccessPolicy.forListening`).
        public var token: AccessToken?
        /// Preview frames are scaled to fit this size (never up).
        public var previewSize: PixelSize
        public var previewFrameRate: Double
        /// JPEG quality of the preview (1…100): 80 makes about 60–100 kB of a 960×540 frame.
        public var previewQuality: Int
        /// Why the camera's format is not the one asked for (`FormatChoice.fallbackReason`), shown
        /// in `/state` as `formatFallback`; nil when it is.
        public var formatFallback: String?
        /// Where the photos are taken, written into their EXIF; nil leaves it out.
        public var location: GPSLocation?

        public init(address: ListenAddress, token: AccessToken? = nil, previewSize: PixelSize = PixelSize(width: 960, height: 540),
                    previewFrameRate: Double = 30, previewQuality: Int = 80, formatFallback: String? = nil, location: GPSLocation? = nil) {
            self.address = address
            self.token = token
            self.previewSize = previewSize
            self.previewFrameRate = previewFrameRate
            self.previewQuality = previewQuality
            self.formatFallback = formatFallback
            self.location = location
        }
    }

    /// `/events` carries the state at most this often.
    public static let eventInterval = Duration.milliseconds(100)

    public let session: CaptureSession
    public let backend: SessionBackend
    public let server: HTTPServer
    private let pipeline: PreviewPipeline
    private let events: EventFeed
    private let frames: AsyncStream<PreviewFrame>
    /// The session's events from before it started, which `run()` takes into the backend.
    private let sessionEvents: AsyncStream<SessionEvent>

    private init(session: CaptureSession, backend: SessionBackend, server: HTTPServer, pipeline: PreviewPipeline,
                 events: EventFeed, frames: AsyncStream<PreviewFrame>, sessionEvents: AsyncStream<SessionEvent>) {
        self.session = session
        self.backend = backend
        self.server = server
        self.pipeline = pipeline
        self.events = events
        self.frames = frames
        self.sessionEvents = sessionEvents
    }

    /// Clients watching a preview stream (any overlay combination).
    public var viewerCount: Int { pipeline.feeds.clientCount }

    /// The newest preview frame, nil before the first.
    public var latestFrame: PreviewFrame? { pipeline.monitor.latest?.frame }

    /// Starts `device` in a new session and the server on `configuration.address`. Frames are
    /// served once `run()` runs. Throws when the session or the server cannot start (the error
    /// names the device or the address).
    public static func start(device: any CaptureDevice, library: PhotoLibrary, configuration: Configuration) async throws -> CameraViewfinder {
        let preview = try PreviewOutput(maximumSize: configuration.previewSize, maximumFrameRate: configuration.previewFrameRate)
        let photos = PhotoOutput(make: "CameraSun", model: device.localizedName)
        let session = CaptureSession()
        var previewConnection: CaptureConnection?
        try await session.configure { config in
            try config.add(DeviceInput(device))
            previewConnection = try config.add(preview)
            try config.add(photos)
        }
        // The preview is in the configuration just committed, so it has a connection.
        let feeds = PreviewFeeds(), events = EventFeed()
        let pipeline = PreviewPipeline(feeds: feeds, monitor: FrameMonitor(), quality: configuration.previewQuality)
        let backend = SessionBackend(device: device, previewConnection: previewConnection!, photoOutput: photos, library: library,
                                     pipeline: pipeline, formatFallback: configuration.formatFallback, location: configuration.location)
        let frames = preview.frames(), sessionEvents = session.events()
        try await session.start()
        let routes = ViewfinderRoutes(backend: backend, previews: feeds, events: events)
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: HTTPServer.Configuration(address: configuration.address),
                                    policy: AccessPolicy.forListening(on: configuration.address, token: configuration.token),
                                    router: routes.router())
        } catch {
            await session.stop()
            throw error
        }
        return CameraViewfinder(session: session, backend: backend, server: server, pipeline: pipeline, events: events, frames: frames,
                                sessionEvents: sessionEvents)
    }

    /// The address to open: the server's URL, with `?token=` when a token is needed.
    public var url: String {
        server.url + (server.policy.token.map { "?token=\($0.value)" } ?? "")
    }

    /// Encodes and publishes preview frames and the state (`/events`, every `eventInterval` while
    /// anyone listens), and follows the session's interruptions, until cancelled. Throws when a
    /// frame cannot be encoded.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [pipeline, frames] in try await pipeline.run(frames) }
            group.addTask { [backend, sessionEvents] in
                for await event in sessionEvents { backend.record(event) }
            }
            group.addTask { [events, backend] in
                while true {
                    try await Task.sleep(for: Self.eventInterval)
                    if events.clientCount > 0, let state = try? await backend.state() { events.publish(state) }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Returns once the first preview frame is in: `/state` and `/snapshot` answer from then on.
    public func firstFrame() async throws {
        try await pipeline.monitor.firstFrame()
    }

    /// Stops the server (ending every stream) and the session.
    public func stop() async {
        server.stop()
        await session.stop()
    }
}
