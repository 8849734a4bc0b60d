import CameraAudio
import CameraCore
import CameraTestSupport
import Foundation

/// A take recorded through the real viewfinder while it serves: a real-time 1080p30 simulated
/// camera on serve's default path (raw, developed, denoised and tone-mapped locally) with 3A,
/// its preview read from `/stream` by a client, and `POST /api/record`'s start and stop (as the
/// page does), with the simulated microphone's sound.
enum LiveTakeBenchmark {
    struct Figures {
        /// The frames the take lacks of 30 a second over the wall-clock time it was recording, in percent
        /// (a simulated camera that falls behind delivers late frames rather than none, and the
        /// take's own duration would shrink with them).
        let droppedPercent: Double
        /// CPU seconds of the whole process per second of the take.
        let cores: Double
        /// Resident memory at the end against `RecordBenchmark.settledSeconds` in, in percent.
        let residentGrowthPercent: Double
    }

    static func run(seconds: Int, progress: BenchmarkProgress) async throws -> Figures {
        let camera = try BenchViewfinder.defaultCamera(size: RecordBenchmark.size)
        let bench = try await BenchViewfinder.start(on: camera, label: "bench record", progress: progress,
                                                    microphone: SimulatedMicrophone(seed: 1))
        defer { bench.remove() }
        let viewfinder = bench.viewfinder
        let port = viewfinder.server.port
        let preview = Task { try await onOwnThread { try BenchViewfinder.watchPreview(port: port) } }

        _ = try await viewfinder.backend.startRecording(maxDuration: nil, watermark: nil)
        let clock = ContinuousClock()
        let start = clock.now, startCPU = ProcessUsage.cpuSeconds()
        var settledResident: Int?
        while clock.now - start < .seconds(seconds) {
            let elapsed = (clock.now - start).seconds
            progress.show(String(format: "bench record: recording 1080p30 with the preview and 3A, %.0f of %d s…", elapsed, seconds))
            if settledResident == nil, elapsed >= RecordBenchmark.settledSeconds { settledResident = ProcessUsage.residentBytes() }
            try await Task.sleep(for: .seconds(1))
        }
        let endResident = ProcessUsage.residentBytes()
        let cpu = ProcessUsage.cpuSeconds() - startCPU, wall = (clock.now - start).seconds
        let entry = try JSONSerialization.jsonObject(with: try await viewfinder.backend.stopRecording()) as? [String: Any]
        await bench.stop()
        _ = try? await preview.value
        guard let frames = entry?["frames"] as? Int else {
            throw BenchmarkError("the take's library entry has no frame count (\(String(describing: entry))) — rebuild camerasun")
        }
        let expected = wall * Double(RecordBenchmark.frameRate)
        // A take shorter than the settling time grows from its end: 0.
        let settled = Double(settledResident ?? endResident)
        return Figures(droppedPercent: max(expected - Double(frames), 0) / expected * 100, cores: cpu / wall,
                       residentGrowthPercent: (Double(endResident) - settled) / settled * 100)
    }
}
