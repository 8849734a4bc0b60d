import CameraCapture
import CameraCore
import CameraStills
import Foundation
import PhotoLibrary

/// Takes photos and stores each in the library as soon as it is encoded, timing the shutter →
/// file path; a photo the library cannot take is kept in a rescue folder, never dropped (a RAW +
/// JPEG pair both files, as the library stores both or neither). The one
/// way a photo goes from a `PhotoOutput` into the library, for `camerasun photo` and the
/// viewfinder's shutter alike.
///
/// ```
///  request ─► PhotoOutput.capture (ZSL frame, JPEG + EXIF) ─► library.add on its own thread
///     │                                                        (fsync'ed file, committed row)
///     └──────────────────────── shutterToFile ────────────────────────┘ ─► landed (reported)
/// ```
///
/// Library writes block in fsync, so each runs on a thread of its own (`onOwnThread`), off the
/// Swift concurrency pool that runs the capture loop: a burst's encodes and writes overlap. A photo
/// lands on the thread that stored it, the moment its row is committed: the shutter → file time
/// is read there and the photo reported at once, one landing at a time, so reports come in the
/// order the photos land, each before the next lands.
public struct PhotoSaver: Sendable {
    /// A photo in the library.
    public struct SavedPhoto: Sendable {
        public let asset: Asset
        /// The exposure stored with it (the asset's, which a photo taken here always has).
        public let exposure: Asset.Exposure
        /// Whether the flash fired, and at what power.
        public let flash: PhotoFlash
        /// When it was asked for, and when its file was fsynced and its catalogue row committed.
        public let requested: ContinuousClock.Instant
        public let durable: ContinuousClock.Instant
        /// A bracket's frames kept on their own (asked for with the photo), each stored after it.
        public let bracketFrames: [Outcome]

        public var shutterToFile: Duration { durable - requested }
    }

    /// What became of one request.
    public enum Outcome: Sendable {
        case saved(SavedPhoto)
        /// The camera could not take it.
        case notTaken(PhotoCaptureError)
        /// Taken but not stored: the library's reason, and where its files were kept instead — the
        /// JPEG, then a RAW + JPEG pair's DNG — (or why they could not be).
        case notSaved(PhotoLibraryError, rescue: Result<[String], RescueError>)
    }

    /// Why a photo could not be kept in the rescue folder either.
    public struct RescueError: Error, CustomStringConvertible {
        public let description: String
    }

    public let photos: PhotoOutput
    public let library: PhotoLibrary
    /// The clock requests and landings are read from: the system's, or a test's.
    let clock: @Sendable () -> ContinuousClock.Instant

    public init(photos: PhotoOutput, library: PhotoLibrary, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.photos = photos
        self.library = library
        self.clock = clock
    }

    /// Where photos the library refused are kept: `$TMPDIR/camerasun-rescue`.
    public static var rescueDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-rescue", isDirectory: true)
    }

    /// Takes one photo with `settings` and stores it.
    public func take(_ settings: PhotoSettings) async -> Outcome {
        await take(settings, number: 0, requested: clock(), landing: Landing(clock: clock) { _, _ in })
    }

    /// Requests between shutter and file at once in a burst: enough to keep encoding and writing
    /// overlapped, few enough that a long burst holds a bounded number of encoded photos in memory.
    public static let burstWindow = 16

    /// Takes `count` photos as overlapping requests — up to `window` between request and file at
    /// once, a new request as each one lands — and calls `landed` with each request's number
    /// (0-based) and outcome as it lands, on the thread that stored it, one at a time. Returns the
    /// outcomes in the order they landed.
    public func takeBurst(count: Int, window: Int = burstWindow, settings: @escaping @Sendable () -> PhotoSettings,
                          landed: @escaping @Sendable (Int, Outcome) -> Void = { _, _ in }) async -> [Outcome] {
        let landing = Landing(clock: clock, report: landed)
        await withTaskGroup(of: Void.self) { group in
            var issued = 0
            func issueNext() {
                let index = issued, requested = clock()
                group.addTask { _ = await take(settings(), number: index, requested: requested, landing: landing) }
                issued += 1
            }
            while issued < min(window, count) { issueNext() }
            for await _ in group {
                if issued < count { issueNext() }
            }
        }
        return landing.outcomes
    }

    /// Takes request `index` and lands its outcome: stored (or rescued) on a thread of its own.
    private func take(_ settings: PhotoSettings, number index: Int, requested: ContinuousClock.Instant,
                      landing: Landing) async -> Outcome {
        let photo: CapturedPhoto
        do {
            photo = try await photos.capture(settings)
        } catch {
            return landing.land(index) { _ in .notTaken(error) }
        }
        return await onOwnThread {
            switch store(photo) {
            case .success(let (asset, exposure)):
                // The photo first, so that nothing else lands before it; then its bracket frames, each kept or rescued.
                let frames = photo.bracketFrames.enumerated().map { number, frame in
                    switch store(frame) {
                    case .success(let (asset, exposure)):
                        Outcome.saved(SavedPhoto(asset: asset, exposure: exposure, flash: frame.flash, requested: requested,
                                                 durable: clock(), bracketFrames: []))
                    case .failure(let error):
                        Outcome.notSaved(error, rescue: Self.rescue([frame], firstFrame: number + 1))
                    }
                }
                return landing.land(index) { durable in
                    .saved(SavedPhoto(asset: asset, exposure: exposure, flash: photo.flash, requested: requested, durable: durable,
                                      bracketFrames: frames))
                }
            case .failure(let error):
                let rescue = Self.rescue([photo] + photo.bracketFrames)
                return landing.land(index) { _ in .notSaved(error, rescue: rescue) }
            }
        }
    }

    /// Stores `photo` (a RAW + JPEG pair both files) in the library.
    private func store(_ photo: CapturedPhoto) -> Result<(Asset, Asset.Exposure), PhotoLibraryError> {
        let record = PhotoRecord(photo)
        do throws(PhotoLibraryError) {
            let asset = try library.add(photo.data, raw: photo.rawData, createdAt: photo.captureDate, width: photo.size.width,
                                        height: photo.size.height, exposure: record.exposure, meteringStatistics: record.meteringStatistics)
            return .success((asset, record.exposure))
        } catch {
            return .failure(error)
        }
    }

    /// A burst's outcomes as they land, one at a time: each is made with the clock's reading at
    /// its landing and reported before the next lands, so the readings rise in landing order.
    private final class Landing: Sendable {
        private let landed = Locked<[Outcome]>([])
        private let clock: @Sendable () -> ContinuousClock.Instant
        private let report: @Sendable (Int, Outcome) -> Void

        init(clock: @escaping @Sendable () -> ContinuousClock.Instant, report: @escaping @Sendable (Int, Outcome) -> Void) {
            self.clock = clock
            self.report = report
        }

        /// Lands request `index`'s outcome, made from the clock's reading now, and reports it.
        func land(_ index: Int, _ outcome: (ContinuousClock.Instant) -> Outcome) -> Outcome {
            landed.withLock { landed in
                let landing = outcome(clock())
                report(index, landing)
                landed.append(landing)
                return landing
            }
        }

        var outcomes: [Outcome] { landed.withLock { $0 } }
    }

    /// Writes `photos` — a photo and then its bracket frames, or bracket frames from number
    /// `firstFrame` on — into the rescue folder under names no other run uses: each JPEG, and a
    /// RAW + JPEG pair's DNG beside it under the same name. Returns their paths.
    private static func rescue(_ photos: [CapturedPhoto], firstFrame: Int = 0) -> Result<[String], RescueError> {
        guard let photo = photos.first else { return .success([]) }
        let milliseconds = Int64((photo.captureDate.timeIntervalSince1970 * 1000).rounded())
        let stem = "photo-\(milliseconds)-\(getpid())-\(photo.settings.uniqueID)"
        let files = photos.enumerated().flatMap { index, photo in
            let number = firstFrame + index
            let name = rescueDirectory.appendingPathComponent(number == 0 ? stem : "\(stem)-frame\(number)")
            return [(name.appendingPathExtension("jpg"), Data(photo.data))]
                + (photo.rawData.map { [(name.appendingPathExtension("dng"), $0)] } ?? [])
        }
        var kept: [String] = []
        for (file, bytes) in files {
            do {
                try FileManager.default.createDirectory(at: rescueDirectory, withIntermediateDirectories: true)
                try bytes.write(to: file, options: .atomic)
                kept.append(file.path)
            } catch {
                let saved = kept.isEmpty ? "" : " (\(kept.joined(separator: ", ")) was kept)"
                return .failure(RescueError(description: "cannot write \(file.path) either: \(error.localizedDescription)\(saved)"))
            }
        }
        return .success(kept)
    }
}
