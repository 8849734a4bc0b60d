import CameraCore
import CameraMovie
import CameraTestSupport
import Foundation

/// `camerasun bench stream`: a live push at 720p30 to nginx-rtmp on loopback (Debian's nginx with
/// its RTMP module, started by the benchmark on a free port and stopped by its PID).
///
/// - Glass to server: each frame's number is drawn into its picture as it leaves the camera
///   (`TimedCaptureDevice`, stamping); a viewer (`StampPlayer`: ffmpeg playing the stream back
///   from nginx) reads it from each decoded picture; the time between, p50 and p95. CameraSun is
///   the real viewfinder on serve's default raw camera (every frame developed, denoised and
///   tone-mapped; its preview read by a viewer, 3A running) going live through
///   `/api/live`'s backend; the peer is `ffmpeg` pushing frames of the same scene, stamped the
///   same way as each is written to it, with the same encoder settings (libx264 superfast,
///   zerolatency, the bitrate capped, a keyframe a second, no B-frames).
/// - CPU: CameraSun's process (preview + AE + stream) and the pushing ffmpeg, cores over the same seconds;
///   and a take beside the stream sharing its encode, beside one encoding apart (`SharedEncodeBenchmark`).
public enum StreamBenchmark {
    static let size = PixelSize(width: 1280, height: 720)
    static let frameRate = 30
    static let bitrateKbps = 2500
    /// Seconds of each push left out of the latencies: the player's probing and first keyframe.
    static let warmUp = 3.0

    struct Figures {
        let latencies: [Double]
        let cores: Double

        func percentile(_ fraction: Double) throws -> Double {
            guard !latencies.isEmpty else { throw BenchmarkError("the player read no stamped frame back from nginx — run make deps") }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    public static func run(seconds: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        try await withScratchDirectory { folder in
            let server = try await NginxRTMPServer.start(in: folder)
            let figures: (ours: Figures, peer: Figures)
            let sharing: Benchmark
            do {
                let ours = try await pushFromViewfinder(to: server.url(key: "camerasun"), seconds: seconds, progress: progress)
                let peer = try await pushFromFFmpeg(to: server.url(key: "ffmpeg"), seconds: seconds, progress: progress)
                figures = (ours, peer)
                sharing = try await SharedEncodeBenchmark.run(server: server, seconds: seconds, progress: progress)
            } catch {
                try? await server.stop()
                throw error
            }
            try await server.stop()
            progress.clear()
            let peerName = "ffmpeg -c:v libx264 -tune zerolatency"
            let (ours50, peer50) = (try figures.ours.percentile(0.5), try figures.peer.percentile(0.5))
            let (ours95, peer95) = (try figures.ours.percentile(0.95), try figures.peer.percentile(0.95))
            return [
                Benchmark(name: "stream-720p30-latency-p50", unit: "ms", ours: ours50, peer: peerName, peerValue: peer50, ratio: peer50 / ours50),
                Benchmark(name: "stream-720p30-latency-p95", unit: "ms", ours: ours95, peer: peerName, peerValue: peer95, ratio: peer95 / ours95),
                Benchmark(name: "stream-720p30-cpu", unit: "cores", ours: figures.ours.cores, peer: peerName, peerValue: figures.peer.cores,
                          ratio: figures.peer.cores / figures.ours.cores),
                sharing,
            ]
        }
    }

    /// The viewfinder on serve's default camera at 720p30, its raw frames stamped, its preview
    /// watched, going live to `url` for `seconds`.
    private static func pushFromViewfinder(to url: String, seconds: Int, progress: BenchmarkProgress) async throws -> Figures {
        let camera = TimedCaptureDevice(try BenchViewfinder.defaultCamera(size: size), stamping: true)
        let bench = try await BenchViewfinder.start(on: camera, label: "bench stream", progress: progress)
        defer { bench.remove() }
        let viewfinder = bench.viewfinder
        let port = viewfinder.server.port
        let preview = Task { try await onOwnThread { try BenchViewfinder.watchPreview(port: port) } }
        _ = try await viewfinder.backend.startLive(url: url, bitrateKbps: bitrateKbps)
        let player = try StampPlayer(url: url, size: size, warmUp: warmUp) { camera.captureTime(ofStamp: $0) }
        let start = ContinuousClock.now, startCPU = ProcessUsage.cpuSeconds()
        while ContinuousClock.now - start < .seconds(Double(seconds) + warmUp) {
            progress.show(String(format: "bench stream: CameraSun live at 720p30 with the preview and 3A, %.0f of %.0f s…",
                                 (ContinuousClock.now - start).seconds, Double(seconds) + warmUp))
            try await Task.sleep(for: .seconds(1))
        }
        let cores = (ProcessUsage.cpuSeconds() - startCPU) / (ContinuousClock.now - start).seconds
        let latencies = await onOwnThread { player.stop() }
        _ = try await viewfinder.backend.stopLive()
        await bench.stop()
        _ = try? await preview.value
        return Figures(latencies: latencies, cores: cores)
    }

    /// `ffmpeg` pushing backlit-portrait frames to `url` at 30 a second for `seconds`, each stamped as it is written.
    private static func pushFromFFmpeg(to url: String, seconds: Int, progress: BenchmarkProgress) async throws -> Figures {
        progress.show("bench stream: rendering the peer's frames…")
        let frames = try await RecordBenchmark.renderFrames(size: size, count: frameRate)
        let pusher = Process()
        pusher.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        let rate = "\(bitrateKbps)k"
        pusher.arguments = ["-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "bgra", "-video_size", "\(size.width)x\(size.height)",
                            "-framerate", "\(frameRate)", "-i", "-", "-c:v", "libx264", "-preset", H264EncoderChoice.softwarePreset,
                            "-tune", "zerolatency", "-b:v", rate, "-maxrate", rate, "-bufsize", rate, "-g", "\(frameRate)", "-bf", "0",
                            "-pix_fmt", "yuv420p", "-f", "flv", "-flvflags", "no_duration_filesize", url]
        let input = Pipe()
        pusher.standardInput = input
        pusher.standardOutput = FileHandle.nullDevice
        pusher.standardError = FileHandle.nullDevice
        try pusher.run()
        let times = Locked<[UInt16: ContinuousClock.Instant]>([:])
        let total = Int((Double(seconds) + warmUp) * Double(frameRate))
        let written = Locked(false)
        let writer = Task {
            try await onOwnThread { () throws -> Void in
                let start = ContinuousClock.now
                for index in 0..<total {
                    let due = start + .seconds(Double(index) / Double(frameRate))
                    let wait = due - ContinuousClock.now
                    if wait > .zero { Thread.sleep(forTimeInterval: wait.seconds) }
                    let picture = frames[index % frames.count].buffer.copy()
                    let stamp = UInt16(truncatingIfNeeded: index)
                    FrameStamp.draw(stamp, into: picture)
                    times.withLock { $0[stamp] = .now }
                    try input.fileHandleForWriting.write(contentsOf: picture.bytes(plane: 0))
                }
                try input.fileHandleForWriting.close()
                written.withLock { $0 = true }
            }
        }
        // The player starts once the push has begun, as it does for CameraSun's.
        try await Task.sleep(for: .seconds(1))
        let player = try StampPlayer(url: url, size: size, warmUp: warmUp - 1) { stamp in times.withLock { $0[stamp] } }
        let pid = pusher.processIdentifier
        var cpu = (start: ProcessUsage.cpuSeconds(of: pid) ?? 0, end: 0.0, at: ContinuousClock.now)
        let measuredFrom = cpu.at
        while !written.withLock({ $0 }) {
            progress.show("bench stream: ffmpeg pushing the same scene at 720p30…")
            if let now = ProcessUsage.cpuSeconds(of: pid) { (cpu.end, cpu.at) = (now, .now) }
            try await Task.sleep(for: .seconds(1))
        }
        try await writer.value
        let latencies = await onOwnThread { player.stop() }
        await onOwnThread { pusher.waitUntilExit() }
        return Figures(latencies: latencies, cores: (cpu.end - cpu.start) / (cpu.at - measuredFrom).seconds)
    }
}
