import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import CameraRecording
import CameraSimulated
import CameraTestSupport
import Foundation

/// Part of `camerasun bench stream`: a 720p30 live push with a take beside it, the take sharing
/// the stream's encode (what `camerasun stream --record` does) beside the same take encoding its
/// own frames, in the same run: the CPU one encode saves.
enum SharedEncodeBenchmark {
    static func run(server: NginxRTMPServer, seconds: Int, progress: BenchmarkProgress) async throws -> Benchmark {
        let own = try await cores(sharing: false, url: server.url(key: "own"), seconds: seconds, progress: progress)
        let shared = try await cores(sharing: true, url: server.url(key: "shared"), seconds: seconds, progress: progress)
        return Benchmark(name: "stream-and-take-720p30-cpu", unit: "cores", ours: shared, peer: "the take encoding its own frames",
                         peerValue: own, ratio: own / shared)
    }

    /// Cores the process spends over `seconds` streaming serve's default 720p30 camera to `url` with a take beside it.
    private static func cores(sharing: Bool, url: String, seconds: Int, progress: BenchmarkProgress) async throws -> Double {
        try await withScratchDirectory { folder in
            let camera = try BenchViewfinder.defaultCamera(size: StreamBenchmark.size)
            let stream = LiveStreamOutput(), take = MovieFileOutput()
            let session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(camera))
                try config.add(stream)
                try config.add(take)
            }
            try await session.start()
            try stream.start(url: url, settings: LiveStreamOutput.Settings(bitRate: StreamBenchmark.bitrateKbps * 1000,
                                                                           sound: .simulated(SimulatedMicrophone())))
            let path = folder.appendingPathComponent("take.mp4").path
            if sharing {
                try take.startRecording(to: path, limits: MovieRecording.Limits(), sharingEncodeOf: stream)
            } else {
                try take.startRecording(to: path, limits: MovieRecording.Limits(), sound: .simulated(SimulatedMicrophone()))
            }
            try await Task.sleep(for: .seconds(StreamBenchmark.warmUp))
            let start = ContinuousClock.now, startCPU = ProcessUsage.cpuSeconds()
            while ContinuousClock.now - start < .seconds(Double(seconds)) {
                progress.show(String(format: "bench stream: live with a take %@, %.0f of %d s…", sharing ? "sharing its encode" : "encoding apart",
                                     (ContinuousClock.now - start).seconds, seconds))
                try await Task.sleep(for: .seconds(1))
            }
            let cores = (ProcessUsage.cpuSeconds() - startCPU) / (ContinuousClock.now - start).seconds
            _ = try await take.stopRecording()
            _ = await stream.stop()
            await session.stop()
            return cores
        }
    }
}
