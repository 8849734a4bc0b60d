import CameraCapture
import CameraCore
import CameraPhotos
import CameraSimulated
import CameraStills
import Foundation
import PhotoLibrary
import Testing

/// When a burst's photos are timed and reported, read through a clock the test hands the saver:
/// a counter, so the order of every reading is known exactly.
@Suite("Photo saver: burst timing")
struct PhotoSaverTests {
    /// One report as the burst's callback received it.
    struct Report {
        let index: Int
        let id: String
        /// The clock's reading for the photo's landing (its file and row durable).
        let durable: Int
        /// The clock's count when the report arrived (read without advancing it).
        let seenAt: Int
    }

    @Test("A burst: each photo is timed when it lands and reported before the next one lands, in landing order")
    func timedAndReportedAtLanding() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-saver-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary(directory: directory)
        let format = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .bgra8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let running = try await PhotoCamera.start(try SimulatedCamera(scene: .grayCard, format: format), settings: .init())
        _ = try #require(await running.waitForExposure())

        let origin = ContinuousClock.now
        let ticks = Locked(0)
        let clock: @Sendable () -> ContinuousClock.Instant = {
            origin + .milliseconds(ticks.withLock { count in
                count += 1
                return count
            })
        }
        let reports = Locked<[Report]>([])
        let saver = PhotoSaver(photos: running.photos, library: library, clock: clock)
        let outcomes = await saver.takeBurst(count: 12, window: 6, settings: { PhotoSettings() }) { index, outcome in
            guard case .saved(let photo) = outcome else { return }
            let durable = Int((photo.durable - origin) / .milliseconds(1))
            let report = Report(index: index, id: photo.asset.id, durable: durable, seenAt: ticks.withLock { $0 })
            reports.withLock { $0.append(report) }
        }
        await running.stop()

        let reported = reports.withLock { $0 }
        try #require(reported.count == 12, "every photo saved and reported: \(outcomes)")
        #expect(Set(reported.map(\.index)) == Set(0..<12))
        for (report, next) in zip(reported, reported.dropFirst()) {
            #expect(report.durable < next.durable, "landing times rise in landing order")
            #expect(report.seenAt < next.durable, "request \(report.index) was reported before request \(next.index) landed")
        }
        let ids = outcomes.compactMap { outcome -> String? in
            if case .saved(let photo) = outcome { return photo.asset.id }
            return nil
        }
        #expect(ids == reported.map(\.id), "the burst's outcomes come in landing order")
    }
}
