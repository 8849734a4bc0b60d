import CameraAudio
import CameraCapture
import CameraCore
import CameraFilters
import CameraMovie
import Foundation

/// Records the session's pictures into movie files, beside the preview and photo outputs
/// (AVCaptureMovieFileOutput's job): H.264 in fragmented MP4, flushed, validated and only then
/// given its name (`MovieRecording`).
///
/// ```
///  capture loop ──receive──► bounded hand-off (queueLimit) ──► encoding worker: MovieRecording
///        (never waits)            full: the frame is dropped,        append … finish(reason)
///                                 counted in `status`                      └─► events: .finished
/// ```
///
/// A live camera is never held back; a device that delivers as fast as it is asked (a file) waits
/// for room in the hand-off instead (`awaitCapacity`), so a transcode loses no frame.
///
/// A take starts on the first frame after `startRecording`, its size and rate that frame's. A
/// limit ends it as a success with its reason, as AVFoundation's limits do; `stopRecording` ends
/// it after the frames already handed off are written.
///
/// A take beside a live stream may share the stream's encode (`sharingEncodeOf`, OBS's "same as
/// stream"): it then records the stream's H.264 and AAC packets from a keyframe on, at the
/// stream's bitrate, and its frames only make its thumbnail — one encoder for both.
public final class MovieFileOutput: CaptureOutput {
    /// A take's progress, for a status line and `/state`.
    public struct Status: Sendable, Equatable {
        public var isRecording = false
        public var path: String?
        /// Frames written, and frames dropped because the encoder was behind.
        public var frames = 0
        public var droppedFrames = 0
        /// Seconds from the take's first frame to its last written.
        public var duration = 0.0
        public var bytes: Int64 = 0
        /// A small JPEG of the take (its frame at `thumbnailTime`, or its first while it is shorter), for the library.
        public var thumbnail: [UInt8]?
    }

    /// Seconds into a take of the frame its thumbnail shows: past the first frames, which may still
    /// be settling, as the first keyframe after them is.
    public static let thumbnailTime = 1.0
    /// The largest thumbnail.
    public static let thumbnailBounds = PixelSize(width: 320, height: 180)

    /// What happens to takes, in order.
    public enum Event: Sendable {
        case started(path: String)
        /// The take was saved: stopped, or ended by a limit (its `reason`).
        case finished(MovieRecording.Saved)
        /// The take could not be made or finished; a partial file named in the error is kept.
        case failed(MovieError)
    }

    /// Frames that may wait for the encoder: a second of slack at 30 fps would hold 30 pooled
    /// buffers the other outputs need, so a short queue drops instead.
    public static let queueLimit = 3

    private struct State {
        var take: Take?
        /// Whether frames still go to the take: false once it is ending (a limit reached, or
        /// stopped), so that frames after its end are neither written nor counted as dropped.
        var accepting = false
        var pending = 0
        var status = Status()
        var waiters: [CheckedContinuation<MovieRecording.Saved, any Error>] = []
        /// `awaitCapacity` calls waiting for the hand-off to have room.
        var capacityWaiters: [CheckedContinuation<Void, Never>] = []

        /// Whether a frame received now would be dropped for want of room.
        var isFull: Bool { take != nil && accepting && pending >= MovieFileOutput.queueLimit }

        /// The capacity waiters to resume once the hand-off has room (or the take ends).
        mutating func takeCapacityWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !isFull else { return [] }
            defer { capacityWaiters = [] }
            return capacityWaiters
        }
    }

    private let state = Locked(State())
    private let encoding = SerialWorker(name: "camerasun.movie-encoding")
    private let subscribers = SubscriberList<Event>(bufferingPolicy: .unbounded)

    public init() {}

    deinit { subscribers.finish() }

    /// The events of takes from now on.
    public var events: AsyncStream<Event> { subscribers.subscribe() }

    public var status: Status { state.withLock { $0.status } }

    /// H.264 in 4:2:0 needs an even width and height.
    public func checkCompatibility(with format: DeviceFormat) throws(CaptureError) {
        guard format.size.width % 2 == 0, format.size.height % 2 == 0 else {
            throw .invalidConfiguration("MovieFileOutput records H.264, which needs an even width and height, not \(format.size)")
        }
    }

    /// Starts a take at `path` (written as `path.partial` until it is saved) from the next frame,
    /// encoded by `encoder` (FFmpeg's name, as `H264EncoderChoice` picks it), with `sound` when
    /// given (a live microphone is started now), each frame through `filters` when given (on a
    /// copy: the frame is shared with the other outputs). Throws when a take is already running
    /// or the microphone does not start; a first frame the filters cannot take fails the take.
    public func startRecording(to path: String, limits: MovieRecording.Limits, encoder: String = H264EncoderChoice.software,
                               sound: MovieSound? = nil, filters: FilterChain? = nil) throws(MovieError) {
        try startRecording(to: path, limits: limits, encoder: encoder, sound: sound, filters: filters, sharing: nil)
    }

    /// Starts a take at `path` that records the packets of `live`'s running stream — its pictures
    /// and sound, one encode for both — from its next frame, made a keyframe. Throws when no stream
    /// runs on `live` or a take is already running.
    public func startRecording(to path: String, limits: MovieRecording.Limits, sharingEncodeOf live: LiveStreamOutput) throws(MovieError) {
        try startRecording(to: path, limits: limits, encoder: H264EncoderChoice.software, sound: nil, filters: nil, sharing: live)
    }

    private func startRecording(to path: String, limits: MovieRecording.Limits, encoder: String, sound: MovieSound?, filters: FilterChain?,
                                sharing: LiveStreamOutput?) throws(MovieError) {
        let microphone: (any AudioSource)? = if case .live(let source) = sound { source } else { nil }
        // The microphone starts first: its timeline's zero is in the take before any frame reaches it.
        let live = try microphone?.startTimeline()
        let take: Take
        do {
            take = try state.withLock { (state) throws(MovieError) -> Take in
                guard state.take == nil else {
                    throw MovieError("already recording to \(state.status.path ?? "a file") — stop that take first")
                }
                let take = Take(path: path, limits: limits, encoder: encoder, sound: sound, live: live, filters: filters)
                (state.take, state.accepting, state.status) = (take, true, Status(isRecording: true, path: path))
                return take
            }
            if let stream = sharing {
                try share(stream, with: take)
            }
        } catch {
            microphone?.stop()
            throw error
        }
        // Read until the take's end stops the microphone.
        microphone?.feed(to: encoding) { [self] chunk in appendSound(chunk, to: take) }
    }

    /// Taps `stream`'s packets for `take`, each batch recorded on the encoding worker; a take that
    /// finds no stream running is given up.
    private func share(_ stream: LiveStreamOutput, with take: Take) throws(MovieError) {
        let tap = stream.addPacketTap { [weak self] packets, parameters in
            guard let self else { return }
            encoding.submit { self.appendShared(packets, parameters: parameters, to: take) }
        }
        guard let tap else {
            state.withLock { state in if state.take === take { (state.take, state.accepting, state.status) = (nil, false, Status()) } }
            throw MovieError("no live stream runs to share its encode with the take — start the stream first")
        }
        take.share(tap)
    }

    /// Ends the take once the frames handed off are written, and returns it as saved with `reason`.
    public func stopRecording(reason: MovieRecording.StopReason = .stopped) async throws -> MovieRecording.Saved {
        try await withCheckedThrowingContinuation { continuation in
            let take = state.withLock { state -> Take? in
                guard let take = state.take else { return nil }
                state.accepting = false
                state.waiters.append(continuation)
                return take
            }
            guard let take else {
                continuation.resume(throwing: MovieError("no take is being recorded — start one first"))
                return
            }
            encoding.submit { self.finish(take, reason: reason) }
        }
    }

    public func receive(_ frame: CapturedFrame) {
        let take = state.withLock { state -> Take? in
            guard let take = state.take, state.accepting else { return nil }
            guard state.pending < Self.queueLimit else {
                // A take sharing a stream's encode records the stream's packets, not these frames.
                if !take.sharesEncode { state.status.droppedFrames += 1 }
                return nil
            }
            state.pending += 1
            return take
        }
        guard let take else { return }
        let received = ContinuousClock.now
        encoding.submit { self.append(frame, receivedAt: received, to: take) }
    }

    public func receive(_ drop: DroppedFrame) {}

    /// Waits while the hand-off to the encoder is full, so a file transcoded flat out loses no frame.
    public func awaitCapacity() async {
        await withCheckedContinuation { continuation in
            let hasRoom = state.withLock { state in
                if state.isFull { state.capacityWaiters.append(continuation) }
                return !state.isFull
            }
            if hasRoom { continuation.resume() }
        }
    }

    /// Resumes the capacity waiters once there is room.
    private func resumeCapacityWaiters() {
        for waiter in state.withLock({ $0.takeCapacityWaiters() }) { waiter.resume() }
    }

    // MARK: On the encoding worker

    private func append(_ frame: CapturedFrame, receivedAt received: ContinuousClock.Instant, to take: Take) {
        defer {
            state.withLock { $0.pending -= 1 }
            resumeCapacityWaiters()
        }
        guard !take.isFinished else { return }
        do {
            let started = take.recording == nil
            guard let reason = try take.append(frame, receivedAt: received) else {
                guard take.recording != nil else { return }
                let progress = take.progress
                let thumbnail = take.thumbnail(of: frame)
                state.withLock { state in
                    guard state.take === take else { return }
                    (state.status.frames, state.status.duration, state.status.bytes) = progress
                    if let thumbnail { state.status.thumbnail = thumbnail }
                }
                if started { subscribers.publish(.started(path: take.path)) }
                return
            }
            state.withLock { state in if state.take === take { state.accepting = false } }
            finish(take, reason: reason)
        } catch {
            end(take, with: .failure(error))
        }
    }

    /// A live stream's packets into the take that shares its encode.
    private func appendShared(_ packets: [EncodedPacket], parameters: LiveStreamParameters, to take: Take) {
        guard !take.isFinished else { return }
        do {
            let started = take.recording == nil
            let reason = try take.append(packets, parameters: parameters)
            if started { subscribers.publish(.started(path: take.path)) }
            guard let reason else { return }
            state.withLock { state in if state.take === take { state.accepting = false } }
            finish(take, reason: reason)
        } catch {
            end(take, with: .failure(error))
        }
    }

    /// A live microphone's `chunk` into the take.
    private func appendSound(_ chunk: AudioChunk, to take: Take) {
        guard !take.isFinished else { return }
        do {
            try take.appendLive(chunk)
        } catch {
            end(take, with: .failure(error))
        }
    }

    private func finish(_ take: Take, reason: MovieRecording.StopReason) {
        guard !take.isFinished else { return }
        do {
            end(take, with: .success(try take.finish(reason: reason)))
        } catch {
            end(take, with: .failure(error))
        }
    }

    private func end(_ take: Take, with result: Result<MovieRecording.Saved, MovieError>) {
        take.isFinished = true
        take.stopSharing()
        if case .live(let source) = take.sound { source.stop() }
        let waiters = state.withLock { state -> [CheckedContinuation<MovieRecording.Saved, any Error>] in
            guard state.take === take else { return [] }
            state.take = nil
            state.accepting = false
            state.status.isRecording = false
            defer { state.waiters = [] }
            return state.waiters
        }
        resumeCapacityWaiters()
        switch result {
        case .success(let saved): subscribers.publish(.finished(saved))
        case .failure(let error): subscribers.publish(.failed(error))
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
    }
}
