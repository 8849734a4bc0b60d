import CameraCapture
import CameraCore
import CameraPhotos
import CameraSimulated
import CameraStills
import Foundation
import PhotoLibrary

/// Part of `bench fusion`: a −2/0/+2 EV bracketed photo as `camerasun photo --bracket` takes it —
/// request → the three raw frames through the capture loop → merged, rendered, JPEG + EXIF →
/// fsynced file and committed row in a temporary library — on the simulated camera streaming
/// 1080p raw (bayer16) at 30 fps in real time, beside a single-frame photo (zero shutter lag) on
/// the same session, the two taken in turn. The goal (issue 25) is ≤ 400 ms to the saved file.
enum BracketCaptureBenchmark {
    static let format = DeviceFormat(size: FusionBenchmark.size, pixelFormat: .bayer16(.rggb, significantBits: 12),
                                     frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
    static let quality = 90

    /// Median and 95th percentile of `shots` bracketed photos, each beside the same statistic of
    /// `shots` single-frame ones (ratio = single ÷ bracket).
    static func run(shots: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-bench-bracket-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary(directory: directory)
        progress.show("bench fusion: starting the 1080p30 raw camera")
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: 30, pacing: .realtime)
        // Focus is locked: each lens move makes the simulator re-render its optics, which a lens motor does not cost.
        let running = try await PhotoCamera.start(camera, settings: PhotoCamera.Settings(focusMode: .locked))
        var (single, bracket): ([Double], [Double]) = ([], [])
        do {
            guard let wait = await running.waitForExposure(), wait.settled else {
                throw BenchmarkError("bench fusion: auto-exposure not settled after \(PhotoCamera.exposureFrames) frames — check the "
                    + "simulated camera with `camerasun meter --source sim:backlit-portrait --frames 30`")
            }
            let saver = PhotoSaver(photos: running.photos, library: library)
            for shot in 1...max(shots, 1) {
                progress.show("bench fusion: bracketed and single photos, \(shot)/\(shots)")
                bracket.append(try await milliseconds(saver, PhotoSettings(format: .jpeg(quality: quality), bracket: FusionBenchmark.offsets)))
                single.append(try await milliseconds(saver, PhotoSettings(format: .jpeg(quality: quality))))
            }
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
        return [(0.5, "median"), (0.95, "p95")].map { fraction, statistic in
            let (ours, peer) = (quantile(bracket, fraction) ?? 0, quantile(single, fraction) ?? 0)
            return Benchmark(name: "bracket-capture-to-file-1080p30-\(statistic)", unit: "ms", ours: ours,
                             peer: "single-frame photo", peerValue: peer, ratio: peer / ours)
        }
    }

    /// Request → fsynced file and committed row of one photo taken with `settings`.
    private static func milliseconds(_ saver: PhotoSaver, _ settings: PhotoSettings) async throws -> Double {
        switch await saver.take(settings) {
        case .saved(let photo): return photo.shutterToFile.milliseconds
        case .notTaken(let error): throw BenchmarkError("bench fusion: a photo was not taken: \(error)")
        case .notSaved(let error, _): throw BenchmarkError("bench fusion: a photo was not saved: \(error)")
        }
    }
}
