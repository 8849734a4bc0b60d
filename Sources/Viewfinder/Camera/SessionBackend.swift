import CameraCapture
import CameraCore
import Foundation
import HTTPServer
import CameraPhotos
import PhotoLibrary

/// The viewfinder's camera side over a running `CaptureSession`: `/state` from the newest preview
/// frame, the controls as `device.configure` transactions (the session's 3A engine carries them
/// out from the next frame), photos from the `PhotoOutput` into the `PhotoLibrary`, and the
/// library's files by catalogued id. Values the device refuses are 400s that name the range.
public final class SessionBackend: ViewfinderBackend {
    let device: any CaptureDevice
    /// The connection feeding the preview: its rotation and mirroring map taps to device points.
    let previewConnection: CaptureConnection
    let photoOutput: PhotoOutput
    let library: PhotoLibrary
    let pipeline: PreviewPipeline
    /// The zoom ramp in progress, cancelled by the next zoom command.
    let zoomRamp = Locked<Task<Void, Never>?>(nil)
    /// Why the camera runs another format than the one asked for, or nil.
    let formatFallback: String?
    /// Where photos are taken (their EXIF GPS), or nil.
    let location: GPSLocation?
    /// The session's interruption now, followed from its events (`record`).
    private let interruption = Locked<InterruptionReason?>(nil)
    /// Library writes and reads (fsync, files) run here, off the concurrency pool.
    private let libraryQueue = DispatchQueue(label: "camerasun.viewfinder.library")

    init(device: any CaptureDevice, previewConnection: CaptureConnection, photoOutput: PhotoOutput, library: PhotoLibrary,
         pipeline: PreviewPipeline, formatFallback: String?, location: GPSLocation?) {
        self.device = device
        self.previewConnection = previewConnection
        self.photoOutput = photoOutput
        self.library = library
        self.pipeline = pipeline
        self.formatFallback = formatFallback
        self.location = location
    }

    deinit {
        zoomRamp.withLock { $0?.cancel() }
    }

    /// The state now, or nil before the first preview frame.
    public var currentState: ViewfinderState? {
        let interruption = interruption.withLock { $0 }
        return pipeline.monitor.latest.map { ViewfinderState($0, device: device, interruption: interruption, formatFallback: formatFallback) }
    }

    /// Takes in one of the session's events: an interruption shows in `/state` until it ends, the
    /// session stops, or a new run starts (which reports an interruption again if there still is one).
    func record(_ event: SessionEvent) {
        interruption.withLock { current in
            switch event {
            case .interrupted(let reason): current = reason
            case .interruptionEnded, .started, .stopped: current = nil
            case .runtimeError: break
            }
        }
    }

    /// Before the first preview frame: 503, saying why the camera is not streaming when it is interrupted.
    public func state() async throws -> Data {
        guard let state = currentState else {
            if let reason = interruption.withLock({ $0 }) {
                throw HTTPError(HTTPStatus(rawValue: 503), "camera interrupted (\(reason.rawValue)) — it starts once it can be used")
            }
            throw Self.starting
        }
        return try Self.encoder.encode(state)
    }

    public func snapshot(overlays: PreviewOverlays) async throws -> Data {
        guard let jpeg = try pipeline.snapshot(overlays: overlays) else { throw Self.starting }
        return jpeg
    }

    /// Takes a photo into the library the way `camerasun photo` does (`PhotoSaver`): a photo the
    /// library refuses is kept in the rescue folder, and the answer says where.
    public func takePhoto(_ command: PhotoCommand) async throws -> Data {
        let saver = PhotoSaver(photos: photoOutput, library: library)
        switch await saver.take(PhotoSettings(format: .jpeg(quality: 92), flashMode: command.flash, location: location)) {
        case .saved(let saved):
            return try Self.encoder.encode(LibraryEntry(saved.asset))
        case .notTaken(let error):
            throw HTTPError(HTTPStatus(rawValue: 503), "the photo was not taken: \(error)")
        case .notSaved(let error, let rescue):
            let kept = switch rescue {
            case .success(let path): "its JPEG was kept at \(path)"
            case .failure(let failure): "and it could not be kept: \(failure)"
            }
            throw HTTPError(HTTPStatus(rawValue: 503), "the photo was taken but the library did not store it (\(error)); \(kept)")
        }
    }

    public func library() async throws -> Data {
        let library = library
        let assets = try await onLibraryQueue { try library.list() }
        return try Self.encoder.encode(["assets": assets.map(LibraryEntry.init)])
    }

    public func libraryFile(id: String) async throws -> (data: Data, contentType: String) {
        let library = library
        return try await onLibraryQueue {
            let asset: Asset
            do {
                asset = try library.asset(id: id)
            } catch let error as PhotoLibraryError where error.kind == .notFound {
                throw HTTPError.notFound("no photo with id \"\(id)\" — GET /library lists the ids")
            }
            let url = library.fileURL(for: asset)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw HTTPError.notFound("the file of photo \(id) is missing — run camerasun library verify")
            }
            return (data, url.pathExtension == "jpg" ? "image/jpeg" : "application/octet-stream")
        }
    }

    /// The answer while no preview frame has arrived yet.
    private static let starting = HTTPError(HTTPStatus(rawValue: 503), "the camera is starting — try again in a moment")

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Runs `work` on the library queue and returns its result.
    private func onLibraryQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            libraryQueue.async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
