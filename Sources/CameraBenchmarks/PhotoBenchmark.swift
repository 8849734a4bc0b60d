import CameraCapture
import CameraCodecs
import CameraCore
import CameraPhotos
import CameraSimulated
import CameraStills
import Foundation
import PhotoLibrary

/// `bench photo`: the whole photo path as `camerasun photo` runs it — PhotoOutput (zero-shutter-lag
/// frame, JPEG + EXIF + thumbnail) → PhotoLibrary (fsynced file, committed catalogue row) — on the
/// simulated camera streaming at 30 fps in real time, into a temporary library on the temporary
/// directory's disk. The session analyses every frame and runs 3A as a real camera's does, and the
/// simulator renders every frame in software besides (a handicap a real sensor does not impose).
/// Latency is timed over single shots one after another, throughput over a burst of overlapping
/// requests; then our JPEG + EXIF encode runs beside a bare libjpeg-turbo encode of the same
/// frame. Shutter → file has no peer (no other program takes the same path), so its `peer` is
/// null; the goals (≤ 40 ms at 1080p, ≥ 30 photos/s) are absolute.
public enum PhotoBenchmark {
    public static let defaultShots = 20
    static let burstCount = 60
    static let quality = 90
    static let sizes: [(label: String, size: PixelSize)] = [
        ("1080p", PixelSize(width: 1920, height: 1080)),
        ("4k", PixelSize(width: 3840, height: 2160)),
    ]

    public static func run(shots: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-bench-photo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var results: [Benchmark] = []
        for (label, size) in sizes {
            progress.show("bench photo \(label): starting the camera")
            let library = try PhotoLibrary(directory: directory.appendingPathComponent(label, isDirectory: true))
            let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
            let camera = try SimulatedCamera(scene: .backlitPortrait, format: format, pacing: .realtime)
            // Focus is locked: each lens move makes the simulator re-render its optics, which a lens motor does not cost.
            let running = try await PhotoCamera.start(camera, settings: PhotoCamera.Settings(focusMode: .locked))
            let frame: CapturedFrame
            do {
                guard let wait = await running.waitForExposure(), wait.settled else {
                    throw BenchmarkError("bench photo \(label): auto-exposure not settled after \(PhotoCamera.exposureFrames) frames — "
                        + "check the simulated camera with `camerasun meter --source sim:backlit-portrait --frames 30`")
                }
                frame = wait.frame
                let saver = PhotoSaver(photos: running.photos, library: library)
                results += try await latency(saver, shots: shots, label: label, progress: progress)
                if label == "1080p" { results.append(try await burst(saver, label: label, progress: progress)) }
            } catch {
                await running.stop()
                throw error
            }
            await running.stop()
            results.append(try await encoding(frame, model: camera.localizedName, runs: shots, label: label, progress: progress))
            progress.clear()
        }
        return results
    }

    /// Median and 95th percentile of `shots` single photos, each from request to committed row.
    private static func latency(_ saver: PhotoSaver, shots: Int, label: String, progress: BenchmarkProgress) async throws -> [Benchmark] {
        var times: [Double] = []
        for shot in 1...shots {
            progress.show("bench photo \(label): shot \(shot)/\(shots)")
            let saved = try saved(await saver.take(settings()))
            times.append(saved.shutterToFile.milliseconds)
        }
        return [(0.5, "median"), (0.95, "p95")].map { fraction, statistic in
            Benchmark(name: "photo-shutter-to-file-\(label)-\(statistic)", unit: "ms", ours: quantile(times, fraction) ?? 0)
        }
    }

    /// Photos per second over a burst of `burstCount` overlapping requests, first request to last row.
    private static func burst(_ saver: PhotoSaver, label: String, progress: BenchmarkProgress) async throws -> Benchmark {
        progress.show("bench photo \(label): burst of \(burstCount)")
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await saver.takeBurst(count: burstCount, settings: settings)
        let elapsed = clock.now - start
        for outcome in outcomes { _ = try saved(outcome) }
        return Benchmark(name: "photo-burst-\(label)", unit: "photos/s", ours: Double(burstCount) / elapsed.seconds)
    }

    /// Our encode of `frame` (JPEG with EXIF and thumbnail, as photos are written) beside one bare
    /// `tjCompress2` call on the same buffer at the same quality, median of `runs` each.
    private static func encoding(_ frame: CapturedFrame, model: String, runs: Int, label: String,
                                 progress: BenchmarkProgress) async throws -> Benchmark {
        progress.show("bench photo \(label): JPEG encode beside libjpeg-turbo")
        let metadata = frame.metadata
        let exif = ExifMetadata(make: "CameraSun", model: model, captureDate: Date(), exposureTime: metadata.exposureDuration,
                                fNumber: metadata.fNumber, iso: metadata.isoSpeedRating, exposureBias: metadata.exposureBias,
                                meteringMode: .other, focalLength: 4, digitalZoomRatio: metadata.zoomFactor)
        let encoder = try JPEGEncoder()
        let buffer = frame.buffer
        let ours = try await medianMilliseconds(runs: runs) { _ = try encoder.encode(buffer, quality: quality, exif: exif) }
        let peer = try await medianMilliseconds(runs: runs) { _ = try encoder.bareTurboJPEGEncode(buffer, quality: quality) }
        return Benchmark(name: "photo-jpeg-encode-\(label)", unit: "ms/photo", ours: ours, peer: "libjpeg-turbo",
                         peerValue: peer, ratio: peer / ours)
    }

    @Sendable private static func settings() -> PhotoSettings {
        PhotoSettings(format: .jpeg(quality: quality))
    }

    /// The saved photo, or the error that says why the benchmark could not take it.
    private static func saved(_ outcome: PhotoSaver.Outcome) throws(BenchmarkError) -> PhotoSaver.SavedPhoto {
        switch outcome {
        case .saved(let photo): return photo
        case .notTaken(let error): throw BenchmarkError("bench photo: a photo was not taken: \(error)")
        case .notSaved(let error, _): throw BenchmarkError("bench photo: a photo was not saved: \(error)")
        }
    }
}
