import CameraCapture
import CameraCore
import CameraMetering
import CameraSimulated

/// `bench metering`: the full analysis (brightness, zones, histogram, clipped fractions, sun
/// mask) of simulated frames on one core, beside a bare memory read of the same frames and
/// OpenCV computing the same numbers, all in the same run.
///
/// A camera frame arrives from the sensor through DMA, not from the CPU cache, and this machine's
/// L3 cache (260 MB) would hold a test frame between runs. So ours and the memory read both take
/// their frames in turn from copies totalling `coldBytes`: every read comes from main memory.
/// OpenCV, in its own process, reads one frame over and over (a warm frame: its best case).
public enum MeteringBenchmark {
    /// The bytes of frame copies cycled through, more than the L3 cache holds.
    static let coldBytes = 640 << 20

    /// The frames measured: 1080p and 4K bgra8, 1080p nv12 (video range).
    static let cases: [(label: String, format: DeviceFormat)] = [
        ("1080p-bgra8", format(1920, 1080, .bgra8)),
        ("4k-bgra8", format(3840, 2160, .bgra8)),
        ("1080p-nv12", format(1920, 1080, .nv12(.video))),
    ]

    static func format(_ width: Int, _ height: Int, _ pixelFormat: PixelFormat) -> DeviceFormat {
        DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: pixelFormat,
                     frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
    }

    public static func run(runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        var results: [Benchmark] = []
        for (label, format) in cases {
            progress.show("bench metering \(label): rendering a frame")
            let camera = try SimulatedCamera(scene: .backlitPortrait, format: format)
            try camera.updateControls { $0.exposureDuration = 1.0 / 1000 }
            try camera.startStreaming()
            let buffer = try await camera.nextFrame().buffer
            let frameBytes = buffer.planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
            let frames = [buffer] + (1..<max(2, coldBytes / frameBytes)).map { _ in buffer.copy() }
            let analyzer = FrameAnalyzer()
            var next = 0
            let ours = try await medianMilliseconds(runs: runs, progress: { progress.show("bench metering \(label): run \($0)/\(runs)") }) {
                _ = try analyzer.analyze(frames[next % frames.count])
                next += 1
            }
            for peer in try await peers(frames, runs: runs, progress: progress, label: label) {
                results.append(Benchmark(name: "metering-\(label)", unit: "ms/frame", ours: ours,
                                         peer: peer.name, peerValue: peer.milliseconds, ratio: peer.milliseconds / ours))
            }
            progress.clear()
        }
        return results
    }

    /// The peers' median times on `frames` (copies of one frame).
    private static func peers(_ frames: [PixelBuffer], runs: Int, progress: BenchmarkProgress, label: String) async throws -> [(name: String, milliseconds: Double)] {
        progress.show("bench metering \(label): memory read")
        let memory = await MemoryReadPeer.measure(frames, runs: runs)
        progress.show("bench metering \(label): OpenCV")
        let opencv = try OpenCVPeer(runs: runs).measure(frames[0])
        return [("memory-read", memory.milliseconds), ("opencv", opencv.milliseconds)]
    }
}
