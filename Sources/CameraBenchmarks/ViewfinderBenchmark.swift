import CameraAudio
import CameraCapture
import CameraCore
import CameraSimulated
import CameraTestSupport
import Foundation

/// `camerasun bench viewfinder`: whether `make run`'s viewfinder keeps up — `camerasun serve`'s
/// default path exactly (the simulated backlit-portrait camera asked for raw RGGB at 1280×720 and
/// 30 fps in real time, so every frame is developed, denoised spatially and temporally and
/// tone-mapped locally; the simulated microphone; a 960×540 MJPEG preview) with one viewer
/// reading `/stream`, for `seconds` seconds once the camera runs steadily.
///
/// The viewer's frame rate beside the frames the camera delivered meanwhile (ratio ours / peer:
/// 1 means the viewer got every frame) and its longest wait between two frames beside the frame
/// interval; the camera's rate, overall and in its slowest second, beside the 30 fps it is asked
/// for (the simulated camera in real time falls behind when the machine cannot keep up); and the
/// cores the whole process used (no peer). Then the same with a second camera (`--source2`): the
/// rate each of the two holds, and the cores.
public enum ViewfinderBenchmark {
    static let size = PixelSize(width: 1280, height: 720)
    static let frameRate = 30.0

    public static func run(seconds: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        try await oneCamera(seconds: seconds, progress: progress) + twoCameras(seconds: seconds, progress: progress)
    }

    /// `make run`'s viewfinder, one viewer reading `/stream`.
    private static func oneCamera(seconds: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let bench = try await BenchViewfinder.start(on: try BenchViewfinder.defaultCamera(size: size), label: "bench viewfinder", progress: progress,
                                                    microphone: SimulatedMicrophone(seed: 1))
        let viewfinder = bench.viewfinder
        defer { bench.remove() }
        let viewer = try await watch(bench)
        func sequence() -> UInt64 { viewfinder.latestFrame?.sequenceNumber ?? 0 }
        let (firstFrame, started, startCPU) = (sequence(), ContinuousClock.now, ProcessUsage.cpuSeconds())
        var (lastFrame, lastTime) = (firstFrame, started)
        var slowestSecond = Double.infinity
        for second in 1...seconds {
            progress.show("bench viewfinder: one viewer of /stream, \(second)/\(seconds) s…")
            try await Task.sleep(until: started + .seconds(second))
            let (frame, time) = (sequence(), ContinuousClock.now)
            slowestSecond = min(slowestSecond, Double(frame - lastFrame) / (time - lastTime).seconds)
            (lastFrame, lastTime) = (frame, time)
        }
        let elapsed = (lastTime - started).seconds
        let cameraRate = Double(lastFrame - firstFrame) / elapsed
        let cores = (ProcessUsage.cpuSeconds() - startCPU) / elapsed
        let reading = try await stop(viewer, bench, progress: progress)
        return [
            Benchmark(name: "viewfinder-720p-viewer", unit: "fps", ours: reading.framesPerSecond, peer: "camera",
                      peerValue: cameraRate, ratio: reading.framesPerSecond / cameraRate),
            Benchmark(name: "viewfinder-720p-viewer-longest-gap", unit: "ms", ours: reading.longestGap, peer: "frame-interval",
                      peerValue: 1000 / frameRate, ratio: 1000 / frameRate / reading.longestGap),
            Benchmark(name: "viewfinder-720p-camera", unit: "fps", ours: cameraRate, peer: "asked", peerValue: frameRate,
                      ratio: cameraRate / frameRate),
            Benchmark(name: "viewfinder-720p-camera-slowest-second", unit: "fps", ours: slowestSecond, peer: "asked",
                      peerValue: frameRate, ratio: slowestSecond / frameRate),
            Benchmark(name: "viewfinder-720p-cpu", unit: "cores", ours: cores),
        ]
    }

    /// `make run`'s viewfinder with `--source2`: two of serve's default cameras, the front one
    /// picture-in-picture, one viewer reading `/stream`; each camera's rate beside the 30 fps asked.
    private static func twoCameras(seconds: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let back = TimedCaptureDevice(try BenchViewfinder.defaultCamera(size: size))
        let front = TimedCaptureDevice(try BenchViewfinder.defaultCamera(size: size, position: .front))
        let bench = try await BenchViewfinder.start(on: back, second: front, label: "bench viewfinder (two cameras)", progress: progress)
        defer { bench.remove() }
        let viewer = try await watch(bench)
        let first = (back: back.latestSequenceNumber, front: front.latestSequenceNumber)
        let (started, startCPU) = (ContinuousClock.now, ProcessUsage.cpuSeconds())
        for second in 1...seconds {
            progress.show("bench viewfinder: two cameras, one viewer of /stream, \(second)/\(seconds) s…")
            try await Task.sleep(until: started + .seconds(second))
        }
        let elapsed = (ContinuousClock.now - started).seconds
        let rates = (back: Double(back.latestSequenceNumber - first.back) / elapsed,
                     front: Double(front.latestSequenceNumber - first.front) / elapsed)
        let cores = (ProcessUsage.cpuSeconds() - startCPU) / elapsed
        _ = try await stop(viewer, bench, progress: progress)
        return [
            Benchmark(name: "viewfinder-two-720p-cameras-back", unit: "fps", ours: rates.back, peer: "asked", peerValue: frameRate,
                      ratio: rates.back / frameRate),
            Benchmark(name: "viewfinder-two-720p-cameras-front", unit: "fps", ours: rates.front, peer: "asked", peerValue: frameRate,
                      ratio: rates.front / frameRate),
            Benchmark(name: "viewfinder-two-720p-cameras-cpu", unit: "cores", ours: cores),
        ]
    }

    /// A viewer of `bench`'s `/stream`, once it has had a frame.
    private static func watch(_ bench: BenchViewfinder) async throws -> ViewerClient {
        let viewer = ViewerClient(port: bench.viewfinder.server.port)
        viewer.start()
        guard try await eventually({ viewer.isStreaming }) else {
            await bench.stop()
            throw BenchmarkError("the /stream viewer had no frame within 30 s — the machine is too busy; run the benchmark again")
        }
        return viewer
    }

    /// Stops `viewer`, then `bench`; what the viewer read, or its failure as the benchmark's error.
    private static func stop(_ viewer: ViewerClient, _ bench: BenchViewfinder, progress: BenchmarkProgress) async throws -> ViewerClient.Reading {
        let reading = await onOwnThread { viewer.finish() }
        progress.clear()
        await bench.stop()
        if let failure = reading.failure { throw BenchmarkError("the /stream viewer failed: \(failure) — run the benchmark again") }
        return reading
    }
}
