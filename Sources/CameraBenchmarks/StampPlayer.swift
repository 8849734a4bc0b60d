import CameraCore
import Foundation

/// A viewer of a live stream for `bench stream`: `ffmpeg` playing it back from the streaming
/// server and decoding each picture to grey, read frame by frame on a thread of its own; each
/// picture's `FrameStamp` is looked up in `captureTime` and the time since then noted — glass to
/// server to decoded picture, the player's own decoding included.
final class StampPlayer: Sendable {
    private let process: Process
    private let latencies = Locked<[Double]>([])
    /// Whether the reading thread has ended.
    private let done = Condition(false)

    /// Starts playing `url` (frames of `size`); latencies count from `warmUp` seconds on, once the
    /// player has probed the stream and reached its first keyframe.
    init(url: String, size: PixelSize, warmUp: Double, captureTime: @escaping @Sendable (UInt16) -> ContinuousClock.Instant?) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-fflags", "nobuffer", "-flags", "low_delay", "-i", url,
                             "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchmarkError("cannot start /usr/bin/ffmpeg to play the stream back: \(error) — run make deps")
        }
        let start = ContinuousClock.now, frameBytes = size.width * size.height
        Thread { [self] in
            defer { done.withLock { $0 = true } }
            let reader = pipe.fileHandleForReading
            var frame = Data()
            while let chunk = try? reader.read(upToCount: frameBytes - frame.count), !chunk.isEmpty {
                frame += chunk
                guard frame.count == frameBytes else { continue }
                let now = ContinuousClock.now
                let stamp = frame.withUnsafeBytes { FrameStamp.read($0, stride: size.width) }
                if (now - start).seconds >= warmUp, let stamp, let captured = captureTime(stamp) {
                    latencies.withLock { $0.append((now - captured).seconds * 1000) }
                }
                frame.removeAll(keepingCapacity: true)
            }
        }.start()
    }

    /// Stops the player (SIGKILL: a process started from the concurrency pool inherits its blocked
    /// signals, SIGTERM among them) and returns the latencies it measured, milliseconds (blocking:
    /// call it off the pool).
    func stop() -> [Double] {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        done.wait { $0 ? .done(()) : .waitForChange(until: nil) }
        return latencies.withLock { $0 }
    }
}
