import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import Foundation

/// Pushes the session's pictures, with sound, live to a streaming server: H.264 + AAC in FLV over
/// RTMP (nginx-rtmp, SRS, a CDN's ingest), surviving a lost server and a slow link.
///
/// ```
///  capture loop ──receive──► bounded hand-off (handOffLimit) ──► encoding worker: LiveEncoder
///        (never waits)            full: the frame is dropped             │ packets
///                                                                        ▼
///                        send thread ◄── LiveSendQueue (bounded: whole GOPs dropped when the link is slow)
///                            │ FLVPublisher: connect, header with the sequence headers, packets, trailer
///                            └─ lost, or stalled (nothing taken for the timeout) → reconnect after ReconnectBackoff's delay,
///                               the new connection starting on a forced keyframe
/// ```
///
/// `start(url:)` checks the URL and returns; the stream connects once the first frame has made the
/// encoders. A first connection that cannot be made, or that the server refuses in its answer (the
/// app or the stream key), ends the stream (`.failed`, with the server named and what to check); a
/// connection lost or dropped later is tried again until `stop()`. `status` and `events` say how it
/// goes, for a status line and `/state`.
public final class LiveStreamOutput: CaptureOutput {
    /// Where a stream is: the one vocabulary of `state` in `--json` and `/state`.
    public enum State: String, Sendable, Equatable {
        /// Not started.
        case idle
        /// Making the first connection.
        case connecting
        /// Connected, the server taking the stream.
        case live
        /// The server has taken nothing for the timeout while packets wait (a hung server or a dead
        /// link); the connection is dropped and new ones tried, and the state stays until one is live.
        case stalled
        /// The connection was lost (closed, reset, refused); a new one is being made.
        case reconnecting
        case stopped, failed
    }

    /// A stream's progress. Its JSON form is what `camerasun stream --json` prints each second and
    /// `/state`'s `live` shows (docs/CLI.md): state, url, bitrateKbps, sentFrames, droppedFrames,
    /// droppedGroups, queuedSeconds, reconnects, elapsed and error.
    public struct Status: Sendable, Equatable, Encodable {
        public var state = State.idle
        /// The server's URL, its stream key masked.
        public var url: String?
        /// Bits a second the socket took over the last second (0 while it takes nothing).
        public var bitRate = 0
        /// Video frames sent to the server, and frames dropped: the hand-off full, a group of
        /// pictures dropped for a slow link, or frames lost while reconnecting.
        public var sentFrames = 0
        public var droppedFrames = 0
        /// Groups of pictures dropped from the send queue.
        public var droppedGroups = 0
        /// Connections made again after one was lost.
        public var reconnects = 0
        /// Seconds of media waiting in the send queue now: the latency it adds.
        public var queuedDuration = 0.0
        /// The most the send queue held: bytes, and seconds of media (the latency it added).
        public var queueHighWaterBytes = 0
        public var queueHighWaterDuration = 0.0
        /// The error that lost the last connection; nil again once a new one is live.
        public var lastError: String?
        /// Seconds since the stream was started.
        public var elapsed = 0.0

        private enum CodingKeys: String, CodingKey {
            case state, url, bitrateKbps, sentFrames, droppedFrames, droppedGroups, queuedSeconds, reconnects, elapsed, error
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state.rawValue, forKey: .state)
            try container.encode(url, forKey: .url)
            try container.encode(bitRate / 1000, forKey: .bitrateKbps)
            try container.encode(sentFrames, forKey: .sentFrames)
            try container.encode(droppedFrames, forKey: .droppedFrames)
            try container.encode(droppedGroups, forKey: .droppedGroups)
            try container.encode((queuedDuration * 100).rounded() / 100, forKey: .queuedSeconds)
            try container.encode(reconnects, forKey: .reconnects)
            try container.encode((elapsed * 10).rounded() / 10, forKey: .elapsed)
            try container.encode(lastError, forKey: .error)
        }
    }

    /// What happens to a stream, in order.
    public enum Event: Sendable {
        /// Connected and publishing; `attempt` 0 is the first connection, then each reconnection.
        case connected(attempt: Int)
        /// The connection was lost or stalled; a new one is tried after `retryAfter` seconds.
        case disconnected(MovieError, retryAfter: Double)
        /// A group of pictures (`frames` video frames) left the send queue unsent: the link is too slow.
        case droppedGroup(frames: Int)
        /// Stopped: the trailer was sent and the connection closed.
        case stopped
        /// The stream could not start or went on failing to encode; it is over.
        case failed(MovieError)
    }

    /// How a stream is encoded and sent.
    public struct Settings: Sendable {
        /// Video bits a second.
        public var bitRate: Int
        /// FFmpeg's H.264 encoder name (`H264EncoderChoice`).
        public var encoder: String
        /// Sound beside the pictures: the simulated microphone, or a live one (started with the
        /// stream, stopped at its end); nil streams video only.
        public var sound: MovieSound?
        /// Seconds a read or write on the socket may make no progress before the link counts as lost.
        public var timeout: Double
        /// The send queue's bound: seconds of media (the latency it may add) and bytes.
        public var queueDuration: Double
        public var queueBytes: Int

        public init(bitRate: Int = 2_500_000, encoder: String = H264EncoderChoice.software, sound: MovieSound? = nil, timeout: Double = 5,
                    queueDuration: Double = 2, queueBytes: Int = 4 << 20) {
            (self.bitRate, self.encoder, self.sound, self.timeout) = (bitRate, encoder, sound, timeout)
            (self.queueDuration, self.queueBytes) = (queueDuration, queueBytes)
        }
    }

    /// Frames that may wait for the encoder, as `MovieFileOutput.queueLimit`.
    public static let handOffLimit = 3

    private let current = Locked<LiveStream?>(nil)
    private let subscribers = SubscriberList<Event>(bufferingPolicy: .unbounded)
    /// The last stream's status once it has ended.
    private let lastStatus = Locked(Status())

    public init() {}

    deinit { subscribers.finish() }

    /// The events of streams from now on.
    public var events: AsyncStream<Event> { subscribers.subscribe() }

    /// Whether a stream runs: started, and not yet stopped or failed.
    public var isStreaming: Bool { current.withLock { $0 }.map { !$0.isOver } ?? false }

    public var status: Status { current.withLock { $0 }?.status ?? lastStatus.withLock { $0 } }

    /// H.264 in 4:2:0 needs an even width and height.
    public func checkCompatibility(with format: DeviceFormat) throws(CaptureError) {
        guard format.size.width % 2 == 0, format.size.height % 2 == 0 else {
            throw .invalidConfiguration("LiveStreamOutput streams H.264, which needs an even width and height, not \(format.size)")
        }
    }

    /// Starts streaming to `url` (`rtmp://HOST[:PORT]/APP/KEY`) from the next frame, a live
    /// microphone in `settings` from now. Throws for a URL that is not one, a microphone that does
    /// not start, or when a stream is already running.
    public func start(url: String, settings: Settings = Settings()) throws(MovieError) {
        let target = try LiveStreamURL(url)
        try current.withLock { (current) throws(MovieError) in
            if let running = current, !running.isOver {
                throw MovieError("already streaming to \(running.url.masked) — stop that stream first")
            }
            // The microphone starts first: its timeline's zero comes before any frame reaches the stream.
            let timeline = if case .live(let microphone) = settings.sound { try microphone.startTimeline() } else { nil as LiveSoundTimeline? }
            current = LiveStream(url: target, settings: settings, liveSound: timeline, publish: { [subscribers] in subscribers.publish($0) })
        }
    }

    /// Ends the stream once the frames handed off are encoded and the queue is sent, the trailer
    /// with them; returns its final status.
    @discardableResult
    public func stop() async -> Status {
        guard let stream = current.withLock({ $0 }) else { return status }
        let final = await stream.stop()
        lastStatus.withLock { $0 = final }
        current.withLock { if $0 === stream { $0 = nil } }
        return final
    }

    /// Gives the running stream's packets to `tap` from the next frame on (a keyframe); nil when
    /// no stream is encoding. `remove()` on the answer ends it.
    func addPacketTap(_ tap: @escaping LiveStream.PacketTap) -> PacketTapToken? {
        guard let stream = current.withLock({ $0 }), let id = stream.addTap(tap) else { return nil }
        return PacketTapToken(stream: stream, id: id)
    }

    /// A tap on a stream's packets, and what it takes to end it.
    struct PacketTapToken: Sendable {
        let stream: LiveStream
        let id: UInt64

        /// The stream's H.264 encoder, by FFmpeg's name.
        var encoderName: String { stream.encoderName }

        func remove() { stream.removeTap(id) }
    }

    public func receive(_ frame: CapturedFrame) {
        current.withLock { $0 }?.receive(frame)
    }

    public func receive(_ drop: DroppedFrame) {}
}
