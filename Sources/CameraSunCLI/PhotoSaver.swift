import CameraCapture
import CameraCore
import Dispatch
import Foundation
import PhotoLibrary
import Viewfinder

/// Takes photos and stores each in the library as soon as it is encoded, timing the shutter →
/// file path; a photo the library cannot take is kept in a rescue folder, never dropped.
///
/// ```
///  request ─► PhotoOutput.capture (ZSL frame, JPEG + EXIF) ─► library.add on `writes`
///     │                                                        (fsync'ed file, committed row)
///     └──────────────────────── shutterToFile ────────────────────────┘
/// ```
///
/// Library writes block in fsync, so they run on a dispatch queue of their own, off the Swift
/// concurrency pool that encodes the photos and runs the capture loop: a burst's encodes and
/// writes overlap.
struct PhotoSaver: Sendable {
    /// A photo in the library.
    struct SavedPhoto: Sendable {
        let asset: Asset
        /// The exposure stored with it (the asset's, which a photo taken here always has).
        let exposure: Asset.Exposure
        /// Whether the flash fired, and at what power.
        let flash: PhotoFlash
        /// From the request to the fsynced file and committed catalogue row.
        let shutterToFile: Duration
    }

    /// What became of one request.
    enum Outcome: Sendable {
        case saved(SavedPhoto)
        /// The camera could not take it.
        case notTaken(PhotoCaptureError)
        /// Taken but not stored: the library's reason, and where the JPEG was kept instead (or
        /// why it could not be).
        case notSaved(PhotoLibraryError, rescue: Result<String, RescueError>)
    }

    /// Why a photo could not be kept in the rescue folder either.
    struct RescueError: Error, CustomStringConvertible {
        let description: String
    }

    let photos: PhotoOutput
    let library: PhotoLibrary

    /// Where photos the library refused are kept: `$TMPDIR/camerasun-rescue`.
    static var rescueDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-rescue", isDirectory: true)
    }

    private static let writes = DispatchQueue(label: "camerasun.photo-library-writes", attributes: .concurrent)

    /// Takes one photo with `settings` and stores it; `requested` is the shutter moment the
    /// shutter → file time counts from.
    func take(_ settings: PhotoSettings, requested: ContinuousClock.Instant = .now) async -> Outcome {
        let photo: CapturedPhoto
        do {
            photo = try await photos.capture(settings)
        } catch {
            return .notTaken(error)
        }
        let record = PhotoRecord(photo)
        switch await store(photo, record: record) {
        case .success(let asset):
            return .saved(SavedPhoto(asset: asset, exposure: record.exposure, flash: photo.flash, shutterToFile: .now - requested))
        case .failure(let error):
            return .notSaved(error, rescue: Self.rescue(photo))
        }
    }

    /// Takes `count` photos as overlapping requests — up to `window` between request and file at
    /// once, a new request as each one finishes — and calls `finished` with each request's number
    /// (0-based) and outcome as it completes. Returns the outcomes in request order.
    func takeBurst(count: Int, window: Int, settings: @escaping @Sendable () -> PhotoSettings,
                   finished: (Int, Outcome) -> Void = { _, _ in }) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var issued = 0
            func issueNext() {
                let index = issued, requested = ContinuousClock.now
                group.addTask { (index, await take(settings(), requested: requested)) }
                issued += 1
            }
            while issued < min(window, count) { issueNext() }
            var outcomes = [Outcome?](repeating: nil, count: count)
            for await (index, outcome) in group {
                outcomes[index] = outcome
                finished(index, outcome)
                if issued < count { issueNext() }
            }
            return outcomes.compactMap { $0 }
        }
    }

    /// Adds `photo` to the library on the blocking-I/O queue, with its exposure and metering.
    private func store(_ photo: CapturedPhoto, record: PhotoRecord) async -> Result<Asset, PhotoLibraryError> {
        await withCheckedContinuation { continuation in
            Self.writes.async {
                continuation.resume(returning: Result { () throws(PhotoLibraryError) in
                    try library.add(photo.data, createdAt: photo.captureDate, width: photo.size.width,
                                    height: photo.size.height, exposure: record.exposure,
                                    meteringStatistics: record.meteringStatistics)
                })
            }
        }
    }

    /// Writes `photo` into the rescue folder under a name no other run uses, and returns its path.
    private static func rescue(_ photo: CapturedPhoto) -> Result<String, RescueError> {
        let milliseconds = Int64((photo.captureDate.timeIntervalSince1970 * 1000).rounded())
        let file = rescueDirectory.appendingPathComponent("photo-\(milliseconds)-\(getpid())-\(photo.settings.uniqueID).jpg")
        do {
            try FileManager.default.createDirectory(at: rescueDirectory, withIntermediateDirectories: true)
            try Data(photo.data).write(to: file, options: .atomic)
            return .success(file.path)
        } catch {
            return .failure(RescueError(description: "cannot write \(file.path) either: \(error.localizedDescription)"))
        }
    }
}
