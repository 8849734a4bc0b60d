import CameraCapture
import CameraCore
import CameraRecording
import CameraStills
import Foundation
import HTTPServer
import CameraPhotos
import PhotoLibrary

/// The viewfinder's camera side over a running `CaptureSession`: `/state` from the newest preview
/// frame, the controls as `device.configure` transactions on the main camera (the session's 3A
/// engine carries them out from the next frame), the switch between two cameras, photos from the
/// main camera's `PhotoOutput` and takes (`ViewfinderRecorder`) into the `PhotoLibrary`, the live
/// stream, and the library's files by catalogued id. Values the device refuses are 400s that name the range.
public final class SessionBackend: ViewfinderBackend {
    let cameras: ViewfinderCameras
    /// The takes, or the 409 that says why the camera's format cannot be recorded.
    let recording: Result<ViewfinderRecorder, HTTPError>
    /// The sound streamed live beside the pictures; nil streams video only.
    let sound: MovieSound?
    let library: PhotoLibrary
    let pipeline: PreviewPipeline
    /// The zoom ramp in progress, cancelled by the next zoom command.
    let zoomRamp = Locked<Task<Void, Never>?>(nil)
    /// Why the camera runs another format than the one asked for, or nil.
    let formatFallback: String?
    /// Where photos are taken (their EXIF GPS), or nil.
    let location: GPSLocation?
    /// Whether the shutter's photos are RAW + JPEG pairs (`/api/raw`).
    let rawPhotos = Locked(false)
    /// Each camera's interruption now (by `uniqueID`), followed from the session's events (`record`).
    private let interruptions = Locked<[String: InterruptionReason]>([:])

    init(cameras: ViewfinderCameras, recording: Result<ViewfinderRecorder, HTTPError>, sound: MovieSound?, library: PhotoLibrary,
         pipeline: PreviewPipeline, formatFallback: String?, location: GPSLocation?) {
        self.cameras = cameras
        self.recording = recording
        self.sound = sound
        self.library = library
        self.pipeline = pipeline
        self.formatFallback = formatFallback
        self.location = location
    }

    deinit {
        zoomRamp.withLock { $0?.cancel() }
    }

    /// The main camera: the one the preview shows and the controls set.
    var device: any CaptureDevice { cameras.main.device }

    /// The connection feeding the preview: its rotation and mirroring map taps to device points.
    var previewConnection: CaptureConnection { cameras.previewConnection }

    /// The takes; nil when the camera cannot record.
    var recorder: ViewfinderRecorder? { try? recording.get() }

    /// The state now, or nil before the first preview frame.
    public var currentState: ViewfinderState? {
        let interruption = interruption, recording = recorder.map { RecordingState($0.output.status) }, live = cameras.live?.status
        return pipeline.monitor.latest.map {
            ViewfinderState($0, device: device, camera: cameras.state, interruption: interruption, formatFallback: formatFallback,
                            recording: recording, live: live,
                            raw: ViewfinderState.Raw(on: rawPhotos.withLock { $0 }, unavailable: rawUnavailable))
        }
    }

    /// The main camera's interruption now, or nil (the other camera's shows only once it is the main one).
    private var interruption: InterruptionReason? {
        let device = device.uniqueID
        return interruptions.withLock { $0[device] }
    }

    /// Takes in one of the session's events: a camera's interruption shows in `/state` until it
    /// ends, the session stops, or a new run starts (which reports an interruption again if there
    /// still is one).
    func record(_ event: SessionDeviceEvent) {
        interruptions.withLock { current in
            switch event.event {
            case .interrupted(let reason): if let device = event.device { current[device] = reason }
            case .interruptionEnded: if let device = event.device { current[device] = nil }
            case .started, .stopped: current = [:]
            case .runtimeError, .ended: break
            }
        }
    }

    /// Before the first preview frame: 503, saying why the camera is not streaming when it is interrupted.
    public func state() async throws -> Data {
        guard let state = currentState else {
            if let reason = interruption {
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
        let saver = PhotoSaver(photos: cameras.main.photos, library: library)
        let raw = command.raw ?? rawPhotos.withLock { $0 }
        switch await saver.take(PhotoSettings(format: .jpeg(quality: 92), flashMode: command.flash, location: location,
                                              bracket: command.bracket, raw: raw)) {
        case .saved(let saved):
            return try Self.encoder.encode(LibraryEntry(saved.asset, flash: PhotoFlashEntry(saved.flash)))
        case .notTaken(let error):
            // Settings this camera cannot do now conflict with it (as `/api/raw` on a camera that is
            // not raw); anything else is the camera's failure.
            let status = if case .unsupported = error { HTTPStatus.conflict } else { HTTPStatus(rawValue: 503) }
            throw HTTPError(status, "the photo was not taken: \(error)")
        case .notSaved(let error, let rescue):
            let kept = switch rescue {
            case .success(let paths): "it was kept at \(paths.joined(separator: " and "))"
            case .failure(let failure): "and it could not be kept: \(failure)"
            }
            throw HTTPError(HTTPStatus(rawValue: 503), "the photo was taken but the library did not store it (\(error)); \(kept)")
        }
    }

    /// Makes the camera facing the command's position the main one (`ViewfinderCameras.switchMain`);
    /// a zoom ramp in progress stops with the camera it zooms.
    public func switchCamera(_ command: CameraCommand) async throws {
        cancelZoomRamp()
        try await cameras.switchMain(to: command.position)
    }

    public func library() async throws -> Data {
        let library = library
        let assets = try await onOwnThread { try library.list() }
        return try Self.encoder.encode(["assets": assets.map { LibraryEntry($0) }])
    }

    public func libraryFile(id: String) async throws -> ServedFile {
        let (asset, library) = (try await catalogued(id), library)
        return ServedFile(url: library.fileURL(for: asset), contentType: asset.kind == .movie ? "video/mp4" : "image/jpeg")
    }

    public func libraryThumbnail(id: String) async throws -> ServedFile {
        guard let url = library.thumbnailURL(for: try await catalogued(id)) else {
            throw HTTPError.notFound("asset \(id) has no thumbnail — a photo is its own picture: GET /library/\(id)")
        }
        return ServedFile(url: url, contentType: "image/jpeg")
    }

    /// The catalogued asset `id`; an unknown id is a 404.
    private func catalogued(_ id: String) async throws -> Asset {
        let library = library
        return try await onOwnThread {
            do {
                return try library.asset(id: id)
            } catch let error as PhotoLibraryError where error.kind == .notFound {
                throw HTTPError.notFound("no asset with id \"\(id)\" — GET /library lists the ids")
            }
        }
    }

    /// The answer while no preview frame has arrived yet.
    private static let starting = HTTPError(HTTPStatus(rawValue: 503), "the camera is starting — try again in a moment")

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
