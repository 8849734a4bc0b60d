import CameraCapture
import CameraCore
import CameraMovie
import CameraSimulated
import CameraTestSupport
import Foundation

/// `camerasun bench record`: recording at 1080p30.
///
/// - The encoder: the same frames of the simulated camera (backlit-portrait, 1920×1080 bgra8)
///   made into fragmented MP4 by CameraSun's `MovieFileWriter` and by `ffmpeg -c:v libx264` with
///   the same settings (preset, rate factor, a keyframe a second, no B-frames, BT.709 4:2:0),
///   one after the other in the same run; frames a second, the ratio ours / ffmpeg's.
/// - A live take: the real viewfinder on a real-time 1080p30 simulated camera, its preview read
///   from `/stream` and its 3A running, recording with sound for `seconds`: the frames the take
///   lacks of 30 a second, the process's CPU beside ffmpeg's encoding the same frames in real
///   time (`-re`) for as long, and how much its resident memory grows from 10 s in to the end.
public enum RecordBenchmark {
    static let size = PixelSize(width: 1920, height: 1080)
    static let frameRate = 30
    /// Frames each encoder takes: three seconds, so that the encoders' start is a small part.
    static let encodedFrames = 90
    /// When the live take's resident memory is first read: its pools, queues and the encoder's
    /// look-ahead are full by then.
    static let settledSeconds = 10.0

    public static func run(seconds: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        try await withScratchDirectory { directory in
            progress.show("bench record: rendering \(encodedFrames) frames at 1920x1080…")
            let frames = try await renderFrames()
            let raw = directory.appendingPathComponent("frames.bgra")
            try write(frames, to: raw)
            progress.show("bench record: encoding them with CameraSun and with ffmpeg…")
            let ours = try encodeWithCameraSun(frames, into: directory.appendingPathComponent("ours.mp4").path)
            let peer = Double(encodedFrames) / (try await encodeWithFFmpeg(raw, into: directory.appendingPathComponent("ffmpeg.mp4").path,
                                                                       realtimeSeconds: nil))
            let encoding = Benchmark(name: "record-encode-1920x1080", unit: "fps", ours: ours, peer: "ffmpeg -c:v libx264", peerValue: peer,
                                     ratio: ours / peer)
            let live = try await LiveTakeBenchmark.run(seconds: seconds, progress: progress)
            progress.show("bench record: ffmpeg encoding the same frames in real time for \(seconds) s…")
            let before = ProcessUsage.cpuSeconds(children: true)
            try await encodeWithFFmpeg(raw, into: directory.appendingPathComponent("ffmpeg-live.mp4").path, realtimeSeconds: seconds)
            let peerCores = (ProcessUsage.cpuSeconds(children: true) - before) / Double(seconds)
            progress.clear()
            return [
                encoding,
                Benchmark(name: "record-live-1080p30-dropped", unit: "%", ours: live.droppedPercent),
                Benchmark(name: "record-live-1080p30-cpu", unit: "cores", ours: live.cores, peer: "ffmpeg -re -c:v libx264",
                          peerValue: peerCores, ratio: peerCores / live.cores),
                Benchmark(name: "record-live-1080p30-rss-growth", unit: "%", ours: live.residentGrowthPercent),
            ]
        }
    }

    /// The simulated camera's first `count` frames at `size` (bgra8, backlit-portrait), copied out of its pool.
    static func renderFrames(size: PixelSize = size, count: Int = encodedFrames) async throws -> [Frame] {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: Double(frameRate))
        try camera.startStreaming()
        defer { camera.stopStreaming() }
        var frames: [Frame] = []
        for _ in 0..<count {
            frames.append(try await camera.nextFrame().copied())
        }
        return frames
    }

    /// `frames` as raw bgra rows, one after the other, for ffmpeg's rawvideo reader.
    private static func write(_ frames: [Frame], to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        for frame in frames { try file.write(contentsOf: frame.buffer.bytes(plane: 0)) }
    }

    /// Frames a second of `MovieFileWriter` over `frames`, from opening the file to closing it.
    private static func encodeWithCameraSun(_ frames: [Frame], into path: String) throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let writer = try MovieFileWriter(path: path, size: size, frameRate: frameRate)
            for frame in frames { try writer.append(frame) }
            _ = try writer.finish()
        }
        return Double(frames.count) / elapsed.seconds
    }

    /// ffmpeg encoding the raw frames in `raw` with CameraSun's settings, as fast as it can or, with
    /// `realtimeSeconds`, looped at their rate for that long; the seconds from its start to its end.
    @discardableResult
    private static func encodeWithFFmpeg(_ raw: URL, into path: String, realtimeSeconds: Int?) async throws -> Double {
        let input = ["-f", "rawvideo", "-pix_fmt", "bgra", "-video_size", "\(size.width)x\(size.height)", "-framerate", "\(frameRate)"]
        let pacing = realtimeSeconds.map { ["-re", "-stream_loop", "-1", "-t", "\($0)"] } ?? []
        let output = ["-c:v", "libx264", "-preset", H264EncoderChoice.softwarePreset,
                      "-crf", "\(H264EncoderChoice.softwareRateFactor)", "-g", "\(frameRate)", "-bf", "0", "-pix_fmt", "yuv420p",
                      "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                      "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-y", path]
        let start = ContinuousClock.now
        let result = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error"] + pacing + input + ["-i", raw.path] + output)
        let elapsed = ContinuousClock.now - start
        guard result.status == 0 else {
            throw BenchmarkError("ffmpeg could not encode the frames (exit \(result.status)): \(result.errors) — run make deps")
        }
        return elapsed.seconds
    }
}
