import CameraCapture
import CameraCore
import CameraSimulated

/// `bench sim`: median time to render a 1080p frame of backlit-portrait (bgra8 and nv12) on one
/// core, after the scene is painted and the lens image cached. No peer renders the same physics,
/// so `peer` is null (BENCHMARKS.md says so); the goal is absolute: ≥ 90 fps for bgra8.
public enum SimulatorBenchmark {
    public static func run(frames: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        var results: [Benchmark] = []
        for format in [PixelFormat.bgra8, .nv12(.video)] {
            let camera = try SimulatedCamera(scene: .backlitPortrait, format: MeteringBenchmark.format(1920, 1080, format))
            try camera.updateControls { $0.exposureDuration = 1.0 / 200 }
            try camera.startStreaming()
            _ = try await camera.nextFrame()
            let milliseconds = try await medianMilliseconds(runs: frames, progress: { progress.show("bench sim \(format): frame \($0)/\(frames)") }) {
                _ = try await camera.nextFrame()
            }
            progress.clear()
            results.append(Benchmark(name: "sim-render-1080p-\(format.name)", unit: "ms/frame", ours: milliseconds))
        }
        return results
    }
}
