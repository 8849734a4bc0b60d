import CameraCore
import CameraMetering

/// Small frames for any number of viewers at a capped rate: each frame is scaled once (to fit
/// `maximumSize`, at most `maximumFrameRate` per second) and shared by every viewer.
///
/// Each viewer has its own stream holding only the newest preview: a slow viewer skips frames,
/// it never grows memory or holds up the others, the session or the camera. Scaling runs on the
/// output's own task, off the capture loop; while a frame is being scaled, a newer one replaces
/// the one waiting. With no viewers nothing is scaled.
///
/// ```swift
/// let preview = try PreviewOutput()
/// try await session.configure { config in try config.add(preview) }
/// for await frame in preview.frames() { send(jpeg(frame.image)) }
/// ```
public final class PreviewOutput: CaptureOutput {
    /// The largest preview; frames are scaled down to fit it, never up.
    public let maximumSize: PixelSize
    /// The most previews per second, by presentation time.
    public let maximumFrameRate: Double
    private let viewers = SubscriberList<PreviewFrame>(bufferingPolicy: .bufferingNewest(1))
    private let pending: AsyncStream<CapturedFrame>.Continuation
    private let lastAccepted = Locked<(stream: Int, time: Double)?>(nil)

    /// Buffers the scaler may have out at once: viewers each hold one and have one waiting.
    static let poolCapacity = 8

    /// A preview output fitting frames within `maximumSize` (each side 2…16384) at up to
    /// `maximumFrameRate` (0.1…240) frames per second. Throws naming a value out of range.
    public init(maximumSize: PixelSize = PixelSize(width: 960, height: 540), maximumFrameRate: Double = 30) throws(ValueOutOfRangeError) {
        _ = try ValueOutOfRangeError.check(Double(maximumSize.width), in: 2...16384, setting: "preview width", unit: "pixels")
        _ = try ValueOutOfRangeError.check(Double(maximumSize.height), in: 2...16384, setting: "preview height", unit: "pixels")
        self.maximumFrameRate = try ValueOutOfRangeError.check(maximumFrameRate, in: 0.1...240, setting: "preview frame rate", unit: "fps")
        self.maximumSize = maximumSize
        let (frames, pending) = AsyncStream.makeStream(of: CapturedFrame.self, bufferingPolicy: .bufferingNewest(1))
        self.pending = pending
        Task { [viewers] in
            var scaler = PreviewScaling(bound: maximumSize)
            let analyzer = FrameAnalyzer()
            for await frame in frames {
                guard let image = scaler.scale(frame.buffer), let statistics = try? analyzer.analyze(image) else { continue }
                viewers.publish(PreviewFrame(image: image, pictureStatistics: statistics, source: frame))
            }
        }
    }

    deinit {
        pending.finish()
        viewers.finish()
    }

    /// A new viewer's stream of previews from now on; it holds at most the newest one and ends
    /// when the viewer stops iterating or the output is deallocated.
    public func frames() -> AsyncStream<PreviewFrame> {
        viewers.subscribe()
    }

    public func receive(_ frame: CapturedFrame) {
        guard !viewers.isEmpty, isDue(frame) else { return }
        pending.yield(frame)
    }

    /// Previews skip frames anyway; a lost frame needs no report.
    public func receive(_ drop: DroppedFrame) {}

    /// True when `frame` is at least one preview interval after the last accepted frame of its
    /// stream (with 1% slack, so a 30 fps source is not thinned by timestamp jitter).
    private func isDue(_ frame: CapturedFrame) -> Bool {
        let time = frame.presentationTime.seconds
        return lastAccepted.withLock { last in
            if let last, last.stream == frame.streamIndex, time - last.time < 0.99 / maximumFrameRate { return false }
            last = (frame.streamIndex, time)
            return true
        }
    }
}

/// Scales frames into pooled bgra8 buffers of the fitted size, making a new pool when the source
/// size changes.
private struct PreviewScaling {
    let bound: PixelSize
    private var pool: BufferPool?

    init(bound: PixelSize) {
        self.bound = bound
    }

    /// The scaled image, or nil when every pooled buffer is still held by viewers.
    mutating func scale(_ source: PixelBuffer) -> PixelBuffer? {
        let size = PreviewScaler.fittedSize(PixelSize(width: source.width, height: source.height), within: bound)
        if pool?.width != size.width || pool?.height != size.height {
            // bgra8 takes any size the fitted one can be (2…16384 each side).
            pool = try? BufferPool(format: .bgra8, width: size.width, height: size.height, capacity: PreviewOutput.poolCapacity)
        }
        guard let image = try? pool?.makeBuffer() else { return nil }
        PreviewScaler.scale(source, into: image)
        return image
    }
}
