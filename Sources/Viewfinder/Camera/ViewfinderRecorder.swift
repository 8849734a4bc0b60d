import CameraAudio
import CameraCapture
import CameraCore
import CameraFilters
import CameraMovie
import CameraPhotos
import CameraRecording
import Foundation
import HTTPServer
import PhotoLibrary

/// The viewfinder's takes, each a `MovieTake`: reserved in the library, recorded by the session's
/// `MovieFileOutput` and catalogued once saved — stopped from the page, or ended by a limit (which
/// `follow` learns from the output's events) — exactly once, whichever comes first. A new take
/// waits until the last one is catalogued.
final class ViewfinderRecorder: Sendable {
    let output: MovieFileOutput
    private let library: PhotoLibrary
    /// The sound recorded with the pictures; nil records video only.
    private let microphone: (any TimelineSound)?
    private let frameSize: PixelSize
    /// The look of every take (`serve`'s filters); a take's watermark text is added to it.
    private let filters: FilterSettings
    /// The H.264 encoder, probed at the first take.
    private let encoder = Locked<H264EncoderChoice?>(nil)
    /// The take recording or being catalogued, or nil.
    private let take = Locked<Take?>(nil)

    /// One take and, once it is saved, the cataloguing of it.
    private final class Take: Sendable {
        let movie: MovieTake
        let cataloguing = Locked<Task<Asset, any Error>?>(nil)

        init(_ movie: MovieTake) {
            self.movie = movie
        }
    }

    init(output: MovieFileOutput, library: PhotoLibrary, microphone: (any TimelineSound)?, frameSize: PixelSize,
         filters: FilterSettings = FilterSettings()) {
        self.filters = filters
        self.output = output
        self.library = library
        self.microphone = microphone
        self.frameSize = frameSize
    }

    /// Starts a take from the next frame, ending by itself after `limits`, in `serve`'s look, with
    /// the frame's time and `watermark`'s text (when given; "" for the time alone) burnt in.
    func start(limits: MovieRecording.Limits, watermark: String?) async throws {
        var settings = self.filters
        if let watermark { settings.watermark = WatermarkSettings(text: watermark.isEmpty ? nil : watermark) }
        let chain: FilterChain
        do {
            chain = try FilterChain(settings)
        } catch {
            throw HTTPError(.internalServerError, "the take's filters cannot be made: \(error)")
        }
        let filters = chain.isEmpty ? nil : chain
        guard take.withLock({ $0 == nil }) else {
            throw HTTPError.conflict(output.status.isRecording
                ? "already recording — stop that take first ({\"action\":\"stop\"})"
                : "the last take is still being saved — start again in a moment")
        }
        // Reserving fsyncs and probing opens encoders: both block, so they run off the pool.
        let (movie, choice) = try await onOwnThread { [self] () throws(HTTPError) -> (MovieTake, H264EncoderChoice) in
            let movie = try Self.reporting { () throws(PhotoLibraryError) in try MovieTake(library: library, output: output) }
            return (movie, encoderChoice())
        }
        let claimed = take.withLock { current -> Bool in
            guard current == nil else { return false }
            current = Take(movie)
            return true
        }
        guard claimed else { throw HTTPError.conflict("already recording — stop that take first ({\"action\":\"stop\"})") }
        do {
            try movie.start(limits: limits, encoder: choice, sound: microphone.map { .simulated($0) }, filters: filters)
        } catch {
            take.withLock { $0 = nil }
            throw HTTPError.conflict("\(error)")
        }
    }

    /// The H.264 encoder for the camera's size: probed once (hardware first, libx264 else), then kept.
    private func encoderChoice() -> H264EncoderChoice {
        encoder.withLock { choice in
            let probed = choice ?? H264EncoderChoice.probed(size: frameSize)
            choice = probed
            return probed
        }
    }

    /// Ends the take with `reason` and returns its catalogued asset.
    func stop(reason: MovieRecording.StopReason = .stopped) async throws -> Asset {
        guard take.withLock({ $0 != nil }), output.status.isRecording else {
            throw HTTPError.conflict("no take is being recorded — start one with {\"action\":\"start\"}")
        }
        let saved: MovieRecording.Saved
        let framesBefore = output.status.frames
        do {
            saved = try await output.stopRecording(reason: reason)
        } catch {
            take.withLock { $0 = nil }
            // Stopped before its first frame: the client's timing, not the server's failure.
            guard framesBefore > 0 else {
                throw HTTPError.conflict("the take was stopped before its first frame, so nothing was recorded — "
                    + "start it again and stop it once its time runs")
            }
            throw HTTPError(.internalServerError, "the take could not be saved: \(error)")
        }
        return try await catalogue(saved)
    }

    /// Takes in one of the output's events: a take a limit ended is catalogued; one that failed
    /// is let go (its partial file, if it has bytes, is left for `camerasun library repair`).
    func follow(_ event: MovieFileOutput.Event) async {
        switch event {
        case .started: break
        case .finished(let saved): _ = try? await catalogue(saved)
        case .failed: take.withLock { $0 = nil }
        }
    }

    /// Catalogues the saved take once, however many ask; the next take may start after it.
    private func catalogue(_ saved: MovieRecording.Saved) async throws -> Asset {
        guard let current = take.withLock({ $0 }), current.movie.path == saved.path else {
            throw HTTPError(.internalServerError, "the take at \(saved.path) has no reservation — run camerasun library repair")
        }
        let task = current.cataloguing.withLock { task in
            if task == nil {
                task = Task {
                    try await onOwnThread {
                        try Self.reporting { () throws(PhotoLibraryError) in try current.movie.catalogue(saved) }
                    }
                }
            }
            return task!
        }
        let result = await task.result
        take.withLock { if $0 === current { $0 = nil } }
        return try result.get()
    }

    /// Runs `work`, a library error becoming a 507 (no space) or a 500 that names the library.
    private static func reporting<T>(_ work: () throws(PhotoLibraryError) -> T) throws(HTTPError) -> T {
        do {
            return try work()
        } catch {
            let status: HTTPStatus = error.kind == .insufficientSpace ? .insufficientStorage : .internalServerError
            throw HTTPError(status, "the library cannot take the recording: \(error)")
        }
    }
}
