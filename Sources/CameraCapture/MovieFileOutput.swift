import CameraAudio
import CameraCodecs
import CameraCore
import CameraMovie
import Dispatch

/// Records the session's pictures into movie files, beside the preview and photo outputs
/// (AVCaptureMovieFileOutput's job): H.264 in fragmented MP4, flushed, validated and only then
/// given its name (`MovieRecording`).
///
/// ```
///  capture loop ──receive──► bounded hand-off (queueLimit) ──► encoding queue: MovieRecording
///        (never waits)            full: the frame is dropped,        append … finish(reason)
///                                 counted in `status`                      └─► events: .finished
/// ```
///
/// A take starts on the first frame after `startRecording`, its size and rate that frame's. A
/// limit ends it as a success with its reason, as AVFoundation's limits do; `stopRecording` ends
/// it after the frames already handed off are written.
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
    }

    private let state = Locked(State())
    private let encoding = DispatchQueue(label: "camerasun.movie-encoding")
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
    /// encoded by `encoder` (FFmpeg's name, as `H264EncoderChoice` picks it), with the simulated
    /// microphone's sound when `microphone` is given (pulled up to each frame's end, on the
    /// camera's timeline, so its clicks meet the camera's sync marks). Throws when a take is
    /// already running.
    public func startRecording(to path: String, limits: MovieRecording.Limits, encoder: String = H264EncoderChoice.software,
                               microphone: SimulatedMicrophone? = nil) throws(MovieError) {
        try state.withLock { (state) throws(MovieError) in
            guard state.take == nil else {
                throw MovieError("already recording to \(state.status.path ?? "a file") — stop that take first")
            }
            state.take = Take(path: path, limits: limits, encoder: encoder, microphone: microphone)
            state.accepting = true
            state.status = Status(isRecording: true, path: path)
        }
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
            encoding.async { self.finish(take, reason: reason) }
        }
    }

    public func receive(_ frame: CapturedFrame) {
        let take = state.withLock { state -> Take? in
            guard let take = state.take, state.accepting else { return nil }
            guard state.pending < Self.queueLimit else {
                state.status.droppedFrames += 1
                return nil
            }
            state.pending += 1
            return take
        }
        guard let take else { return }
        encoding.async { self.append(frame, to: take) }
    }

    public func receive(_ drop: DroppedFrame) {}

    // MARK: On the encoding queue

    private func append(_ frame: CapturedFrame, to take: Take) {
        defer { state.withLock { $0.pending -= 1 } }
        guard !take.isFinished else { return }
        do {
            let started = take.recording == nil
            guard let reason = try take.append(frame) else {
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
        let waiters = state.withLock { state -> [CheckedContinuation<MovieRecording.Saved, any Error>] in
            guard state.take === take else { return [] }
            state.take = nil
            state.accepting = false
            state.status.isRecording = false
            defer { state.waiters = [] }
            return state.waiters
        }
        switch result {
        case .success(let saved): subscribers.publish(.finished(saved))
        case .failure(let error): subscribers.publish(.failed(error))
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
    }
}

/// One take: its recording is made from the first frame, and used only on the output's serial
/// encoding queue — the confinement that makes it safe to share with the capture loop.
private final class Take: @unchecked Sendable {
    let path: String
    let limits: MovieRecording.Limits
    private let encoder: String
    private let microphone: SimulatedMicrophone?
    /// The microphone's next sample to record, on the camera's timeline.
    private var nextSample: Int64?
    private(set) var recording: MovieRecording?
    private var span: (start: Double, end: Double)?
    private var hasLateThumbnail = false
    var isFinished = false

    init(path: String, limits: MovieRecording.Limits, encoder: String, microphone: SimulatedMicrophone?) {
        (self.path, self.limits, self.encoder, self.microphone) = (path, limits, encoder, microphone)
    }

    /// Writes `frame`, or returns the limit that ends the take.
    func append(_ frame: CapturedFrame) throws(MovieError) -> MovieRecording.StopReason? {
        let recording: MovieRecording
        if let existing = self.recording {
            recording = existing
        } else {
            let sound = microphone.map { MovieFileWriter.AudioFormat(sampleRate: $0.sampleRate, channelCount: $0.channelCount) }
            recording = try MovieRecording(path: path, size: PixelSize(width: frame.buffer.width, height: frame.buffer.height),
                                           frameRate: max(Int((1 / frame.frameDuration.seconds).rounded()), 1), limits: limits,
                                           encoder: encoder, audio: sound)
            self.recording = recording
        }
        if let reason = try recording.append(frame.frame) { return reason }
        if let microphone { try recordSound(microphone, through: frame, into: recording) }
        let start = span?.start ?? frame.presentationTime.seconds
        span = (start, frame.presentationTime.seconds + frame.frameDuration.seconds)
        return nil
    }

    /// The microphone's samples from where the last frame's ended to this frame's end.
    private func recordSound(_ microphone: SimulatedMicrophone, through frame: CapturedFrame, into recording: MovieRecording)
        throws(MovieError) {
        let rate = Double(microphone.sampleRate)
        let start = nextSample ?? Int64((frame.presentationTime.seconds * rate).rounded())
        let end = Int64(((frame.presentationTime.seconds + frame.frameDuration.seconds) * rate).rounded())
        guard end > start else { return }
        nextSample = end
        try recording.append(AudioChunk(samples: microphone.samples(from: start, count: Int(end - start)), sampleRate: microphone.sampleRate,
                                        channelCount: 1, presentationTime: MediaTime(value: start, timescale: Int32(microphone.sampleRate))))
    }

    /// A thumbnail of `frame` when it is the take's first or the first past `thumbnailTime`, else nil.
    func thumbnail(of frame: CapturedFrame) -> [UInt8]? {
        guard let recording, let span else { return nil }
        let isFirst = recording.frames == 1
        let isLate = !hasLateThumbnail && span.end - span.start > MovieFileOutput.thumbnailTime
        guard isFirst || isLate else { return nil }
        if isLate { hasLateThumbnail = true }
        return try? JPEGEncoder().encodedThumbnail(of: frame.buffer, fitting: MovieFileOutput.thumbnailBounds)
    }

    /// Frames, seconds (from the first frame's start to the last one's end) and bytes written so far.
    var progress: (frames: Int, duration: Double, bytes: Int64) {
        guard let recording, let span else { return (0, 0, 0) }
        return (recording.frames, span.end - span.start, recording.bytesWritten)
    }

    func finish(reason: MovieRecording.StopReason) throws(MovieError) -> MovieRecording.Saved {
        guard let recording else {
            throw MovieError("the take at \(path) ended before its first frame — nothing was recorded")
        }
        return try recording.finish(reason: reason)
    }
}
