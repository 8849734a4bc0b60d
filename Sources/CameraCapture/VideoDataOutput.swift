import CameraCore

/// Frames for app code, in order, each analysed and carrying its 3A state and connection values
/// (AVCaptureVideoDataOutput without the delegate queue or the sample-buffer rituals).
///
/// ```swift
/// let output = VideoDataOutput()
/// try await session.configure { config in
///     try config.add(DeviceInput(camera))
///     try config.add(output)
/// }
/// try await session.start()
/// for await frame in output.frames {
///     print(frame.sequenceNumber, frame.statistics.brightness)
/// }
/// ```
///
/// Frames reach the consumer on the consumer's own task — the `for await` loop's, or the
/// handler's — never on the session's. While `alwaysDiscardsLateFrames` is true (the default) a
/// frame that arrives while the consumer is still busy waits in a single slot, and a newer one
/// replaces it. Every frame that does not reach the consumer is counted in `statistics` and
/// reported once on `drops()`, with its reason.
public final class VideoDataOutput: CaptureOutput {
    /// The pixel format the consumer needs, or nil for whatever the device delivers. The session
    /// does not convert: a device format of another pixel format fails the configuration.
    public let pixelFormat: PixelFormat?
    private let queue: FrameQueue
    private let dropSubscribers = SubscriberList<DroppedFrame>(bufferingPolicy: .unbounded)
    private let handlerTask = Locked<Task<Void, Never>?>(nil)

    public init(alwaysDiscardsLateFrames: Bool = true, pixelFormat: PixelFormat? = nil) {
        self.pixelFormat = pixelFormat
        queue = FrameQueue(discardsLateFrames: alwaysDiscardsLateFrames)
    }

    deinit {
        handlerTask.withLock { $0?.cancel() }
        queue.finish()
        dropSubscribers.finish()
    }

    /// When true, a consumer that falls behind gets the newest frame and the ones it missed are
    /// dropped as `late`. When false every frame is queued until the device's buffer pool runs out
    /// (frames are then dropped as `outOfBuffers` at the device), so memory stays bounded either way.
    public var alwaysDiscardsLateFrames: Bool {
        get { queue.discardsLateFrames }
        set { queue.discardsLateFrames = newValue }
    }

    /// The frames, in order. One consumer at a time takes them: two concurrent loops would share
    /// the frames between them. Cancelling a consuming task ends its loop, not the output.
    public var frames: Frames { Frames(queue: queue) }

    /// Calls `handler` with every frame, one at a time and in order, on a task of the output's
    /// own (instead of iterating `frames`). Replacing the handler stops the previous one after
    /// the frame it is handling; nil stops handling.
    public func setHandler(_ handler: (@Sendable (CapturedFrame) async -> Void)?) {
        let frames = frames
        let task = handler.map { handler in
            Task {
                for await frame in frames { await handler(frame) }
            }
        }
        handlerTask.withLock { current in
            current?.cancel()
            current = task
        }
    }

    /// Reports of the frames dropped from now on, one per dropped frame. Each call makes a new
    /// subscriber; its stream buffers until read.
    public func drops() -> AsyncStream<DroppedFrame> {
        dropSubscribers.subscribe()
    }

    /// Frames delivered and dropped so far, and the intervals between delivered frames.
    public var statistics: FrameDeliveryStatistics { queue.statistics }

    /// Frames received and not yet taken by the consumer.
    public var framesWaiting: Int { queue.waitingCount }

    public func checkCompatibility(with format: DeviceFormat) throws(CaptureError) {
        if let pixelFormat, pixelFormat != format.pixelFormat {
            throw .invalidConfiguration("the VideoDataOutput wants \(pixelFormat) frames but the device delivers \(format) — "
                + "choose a \(pixelFormat) device format, or create the output without a pixel format")
        }
    }

    public func receive(_ frame: CapturedFrame) {
        for late in queue.post(frame) {
            dropSubscribers.publish(DroppedFrame(reason: .late, sequenceNumber: late.sequenceNumber))
        }
    }

    public func receive(_ drop: DroppedFrame) {
        queue.recordDrop(drop.reason)
        dropSubscribers.publish(drop)
    }

    /// The frames of a `VideoDataOutput`, as an async sequence.
    public struct Frames: AsyncSequence, Sendable {
        fileprivate let queue: FrameQueue

        public func makeAsyncIterator() -> Iterator { Iterator(queue: queue) }

        public struct Iterator: AsyncIteratorProtocol, Sendable {
            fileprivate let queue: FrameQueue

            public mutating func next() async -> CapturedFrame? {
                await queue.next()
            }
        }
    }
}
