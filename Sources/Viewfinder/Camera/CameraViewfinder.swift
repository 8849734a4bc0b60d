import CameraAudio
import CameraCapture
import CameraCore
import CameraFilters
import CameraMovie
import CameraRecording
import Foundation
import HTTPServer
import PhotoLibrary

/// A camera served to browsers: a `CaptureSession` with a preview, a photo and a movie output (and
/// a second camera picture-in-picture, `ViewfinderCameras`), the preview pipeline (MJPEG per
/// overlay combination), the `/events` publisher and the HTTP server with the viewfinder's routes
/// — what `camerasun serve` runs.
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
        /// The sound recorded with takes and streamed live (the simulated microphone, a file's own); nil records and streams video only.
        public var microphone: (any TimelineSound)?
        /// Where `/sounds/NAME` finds the user's sounds.
        public var sounds: SoundFolder
        /// The look of the preview and of takes (`serve --beauty/--lut/--watermark`); photos stay as shot.
        public var filters: FilterSettings

        public init(address: ListenAddress, token: AccessToken? = nil, previewSize: PixelSize = PixelSize(width: 960, height: 540),
                    previewFrameRate: Double = 30, previewQuality: Int = 80, formatFallback: String? = nil, location: GPSLocation? = nil,
                    microphone: (any TimelineSound)? = nil, sounds: SoundFolder = .standard(), filters: FilterSettings = FilterSettings()) {
            self.address = address
            self.token = token
            self.previewSize = previewSize
            self.previewFrameRate = previewFrameRate
            self.previewQuality = previewQuality
            self.formatFallback = formatFallback
            self.location = location
            self.microphone = microphone
            self.sounds = sounds
            self.filters = filters
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
    /// The other camera's inset frames, which `run()` takes into the pipeline; nil with one camera.
    private let insets: AsyncStream<PreviewFrame>?
    /// The session's events from before it started, which `run()` takes into the backend.
    private let sessionEvents: AsyncStream<SessionDeviceEvent>
    /// The movie output's events, which `run()` takes to the recorder (a take a limit ends is catalogued).
    private let movieEvents: AsyncStream<MovieFileOutput.Event>?

    private init(session: CaptureSession, backend: SessionBackend, server: HTTPServer, pipeline: PreviewPipeline,
                 events: EventFeed, frames: AsyncStream<PreviewFrame>, insets: AsyncStream<PreviewFrame>?,
                 sessionEvents: AsyncStream<SessionDeviceEvent>, movieEvents: AsyncStream<MovieFileOutput.Event>?) {
        self.session = session
        self.backend = backend
        self.server = server
        self.pipeline = pipeline
        self.events = events
        self.frames = frames
        self.insets = insets
        self.sessionEvents = sessionEvents
        self.movieEvents = movieEvents
    }

    /// Clients watching a preview stream (any overlay combination).
    public var viewerCount: Int { pipeline.feeds.clientCount }

    /// The newest preview frame, nil before the first.
    public var latestFrame: PreviewFrame? { pipeline.monitor.latest?.frame }

    /// Starts `device` (and `secondDevice`, shown picture-in-picture and switched to by
    /// `POST /api/camera`) in a new session and the server on `configuration.address`. Frames are
    /// served once `run()` runs. Throws when the session or the server cannot start (the error
    /// names the device or the address), or the second camera does not suit (`checkSecondCamera`).
    public static func start(device: any CaptureDevice, secondDevice: (any CaptureDevice)? = nil, library: PhotoLibrary,
                             configuration: Configuration) async throws -> CameraViewfinder {
        let session = CaptureSession()
        let cameras = try await ViewfinderCameras.configure(main: device, second: secondDevice, in: session,
                                                            previewSize: configuration.previewSize,
                                                            previewFrameRate: configuration.previewFrameRate)
        let feeds = PreviewFeeds(), events = EventFeed()
        let previewFilters = try FilterChain(configuration.filters)
        let pipeline = PreviewPipeline(feeds: feeds, monitor: FrameMonitor(), quality: configuration.previewQuality,
                                       filters: previewFilters.isEmpty ? nil : previewFilters)
        let size = device.activeFormat.size
        let recording = cameras.movie.map {
            ViewfinderRecorder(output: $0, library: library, microphone: configuration.microphone, frameSize: size,
                               filters: configuration.filters)
        }
        let backend = SessionBackend(
            cameras: cameras, recording: recording.map { .success($0) } ?? .failure(SessionBackend.cannotEncode(size)),
            sound: configuration.microphone.map { .simulated($0) }, library: library, pipeline: pipeline,
            formatFallback: configuration.formatFallback, location: configuration.location)
        let frames = cameras.preview.frames(), insets = cameras.inset?.frames(), sessionEvents = session.deviceEvents()
        let movieEvents = cameras.movie?.events
        try await session.start()
        let routes = ViewfinderRoutes(backend: backend, previews: feeds, events: events, sounds: configuration.sounds)
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
                                insets: insets, sessionEvents: sessionEvents, movieEvents: movieEvents)
    }

    /// Throws, naming both cameras, unless `second` can join `main` in a viewfinder: one faces the
    /// back and the other the front (`POST /api/camera` switches by position), and both run at
    /// the same size (takes keep their size across a switch).
    public static func checkSecondCamera(_ second: any CaptureDevice, main: any CaptureDevice) throws(CaptureError) {
        guard Set([main.position, second.position]) == [.back, .front] else {
            throw .invalidConfiguration("the viewfinder switches between a back and a front camera, but \(main.uniqueID) faces "
                + "\(main.position.rawValue) and \(second.uniqueID) \(second.position.rawValue) — "
                + "pair a back camera with a front one (a simulated second camera faces the front: position=front)")
        }
        guard main.activeFormat.size == second.activeFormat.size else {
            throw .invalidConfiguration("\(second.uniqueID) runs at \(second.activeFormat.size) and \(main.uniqueID) at "
                + "\(main.activeFormat.size) — two cameras need the same size (choose one both offer)")
        }
    }

    /// The address to open: the server's URL, with `?token=` when a token is needed.
    public var url: String {
        server.url + (server.policy.token.map { "?token=\($0.value)" } ?? "")
    }

    /// Encodes and publishes preview frames and the state (`/events`, every `eventInterval` while
    /// anyone listens), follows the session's interruptions and catalogues the takes a limit ends,
    /// until cancelled. Throws when a frame cannot be encoded.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [pipeline, frames] in try await pipeline.run(frames) }
            if let insets {
                group.addTask { [pipeline] in await pipeline.showInsets(insets) }
            }
            group.addTask { [backend, sessionEvents] in
                for await event in sessionEvents { backend.record(event) }
            }
            if let movieEvents, let recorder = backend.recorder {
                group.addTask {
                    for await event in movieEvents { await recorder.follow(event) }
                }
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

    /// Saves a take still recording (into the library, `reason` its stop reason) and ends a live
    /// stream, then stops the server (ending every stream) and the session.
    public func stop(reason: MovieRecording.StopReason = .stopped) async {
        if let recorder = backend.recorder, recorder.output.status.isRecording { _ = try? await recorder.stop(reason: reason) }
        if let live = backend.cameras.live, live.isStreaming { await live.stop() }
        server.stop()
        await session.stop()
    }
}
