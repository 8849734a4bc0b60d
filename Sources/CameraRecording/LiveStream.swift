import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import Foundation

/// One stream of a `LiveStreamOutput`, from `start` to its end: frames are encoded on a
/// `SerialWorker`, the packets wait in a bounded `LiveSendQueue`, and a thread of its own sends
/// them, connecting again with `ReconnectBackoff` when the connection is lost. A connection that
/// takes no packet for the timeout while packets wait reads `stalled` at once, and stays so while
/// new connections stall too; the bitrate is what the socket took over the last second. The state
/// the three share is a `Condition` the send thread waits on; the encoder is used only on the
/// encoding worker. A live microphone is read on a thread of its own, its chunks placed on the
/// frames' timeline (`LiveSoundTimeline`) on the encoding worker, as a take's are.
final class LiveStream: @unchecked Sendable {
    typealias Status = LiveStreamOutput.Status
    typealias Event = LiveStreamOutput.Event
    /// Takes each batch of packets the encoders make, on the encoding worker, with the stream's
    /// parameters: a take that shares the stream's encode.
    typealias PacketTap = @Sendable ([EncodedPacket], LiveStreamParameters) -> Void

    /// What the capture loop, the encoding worker and the send thread share.
    private struct Shared: Sendable {
        let started = ContinuousClock.now
        /// Seconds a connection attempt or a packet may take before the link counts as stalled.
        let timeout: Double
        var queue: LiveSendQueue
        var parameters: LiveStreamParameters?
        /// Frames handed to the encoding worker and not yet encoded.
        var pending = 0
        var accepting = true
        /// No more packets come: stopped (or the encoder failed) and the encoders drained.
        var encodingDone = false
        var encodingError: MovieError?
        /// The next frame is encoded as an IDR (a new connection starts on one).
        var keyframeRequested = false
        var handOffDrops = 0
        var current = Status()
        /// When the send thread began the connection or packet it is on now; nil between packets.
        var writingSince: ContinuousClock.Instant?
        var rate = LiveStreamRate()
        var over = false
        /// Seconds from start to the end, once over.
        var lasted: Double?
        var stopWaiters: [CheckedContinuation<Status, Never>] = []
        var taps: [UInt64: PacketTap] = [:]
        var nextTap: UInt64 = 0

        /// The status with the queue's counts.
        var status: Status {
            var status = current
            let now = ContinuousClock.now
            if status.state == .live, isStalled(at: now) { status.state = .stalled }
            status.bitRate = rate.bitsPerSecond(at: now)
            status.elapsed = lasted ?? (now - started).seconds
            status.droppedFrames = handOffDrops + queue.droppedFrames
            (status.droppedGroups, status.queuedDuration, status.queueHighWaterBytes, status.queueHighWaterDuration) =
                (queue.droppedGroups, queue.duration, queue.highWaterBytes, queue.highWaterDuration)
            return status
        }

        /// Whether the send thread has been on one connection attempt or one packet for the
        /// timeout: the server takes nothing while packets wait.
        func isStalled(at now: ContinuousClock.Instant) -> Bool {
            writingSince.map { now - $0 >= .seconds(timeout) } ?? false
        }
    }

    let url: LiveStreamURL
    private let settings: LiveStreamOutput.Settings
    private let publish: @Sendable (Event) -> Void
    private let encoding = SerialWorker(name: "camerasun.live-encoding")
    private let shared: Condition<Shared>

    // Used only on the encoding worker.
    private var encoder: LiveEncoder?
    private var simulatedSound: SimulatedSoundCursor?
    private var liveSound: LiveSoundTimeline?

    /// A stream to `url`; a live microphone in `settings` must have been started (`liveSound` its
    /// timeline), and is read from now on and stopped when the stream ends.
    init(url: LiveStreamURL, settings: LiveStreamOutput.Settings, liveSound: LiveSoundTimeline? = nil,
         publish: @escaping @Sendable (Event) -> Void) {
        (self.url, self.settings, self.publish, self.liveSound) = (url, settings, publish, liveSound)
        var shared = Shared(timeout: settings.timeout,
                            queue: LiveSendQueue(durationLimit: settings.queueDuration, byteLimit: settings.queueBytes))
        (shared.current.state, shared.current.url) = (.connecting, url.masked)
        self.shared = Condition(shared)
        switch settings.sound {
        case .simulated(let microphone): simulatedSound = SimulatedSoundCursor(microphone)
        case .live(let microphone): microphone.feed(to: encoding) { [self] chunk in encode(chunk) }
        case nil: break
        }
        Thread { [self] in send() }.start()
    }

    var status: Status { shared.withLock { $0.status } }

    var isOver: Bool { shared.withLock { $0.over } }

    /// The H.264 encoder's FFmpeg name.
    var encoderName: String { settings.encoder }

    /// Adds `tap` to the packets from the next frame on, which is made a keyframe (a take starts on
    /// one); nil when the stream no longer encodes. `removeTap` with the id ends it.
    func addTap(_ tap: @escaping PacketTap) -> UInt64? {
        shared.withLock { shared in
            guard shared.accepting else { return nil }
            shared.nextTap += 1
            (shared.taps[shared.nextTap], shared.keyframeRequested) = (tap, true)
            return shared.nextTap
        }
    }

    func removeTap(_ id: UInt64) {
        shared.withLock { $0.taps[id] = nil }
    }

    /// From the capture loop: hands `frame` to the encoding worker, or drops it when the hand-off is full.
    func receive(_ frame: CapturedFrame) {
        let accepted = shared.withLock { shared -> Bool in
            guard shared.accepting else { return false }
            guard shared.pending < LiveStreamOutput.handOffLimit else {
                shared.handOffDrops += 1
                return false
            }
            shared.pending += 1
            return true
        }
        guard accepted else { return }
        let received = ContinuousClock.now
        encoding.submit { self.encode(frame, receivedAt: received) }
    }

    /// Stops taking frames, drains the encoders, waits for the send thread to send what is queued
    /// and the trailer; returns the final status.
    func stop() async -> Status {
        await withCheckedContinuation { continuation in
            let final = shared.withLock { shared -> Status? in
                shared.accepting = false
                if shared.over { return shared.status }
                shared.stopWaiters.append(continuation)
                return nil
            }
            if let final { continuation.resume(returning: final) }
            encoding.submit { self.finishEncoding(error: nil) }
        }
    }

    // MARK: On the encoding worker

    private func encode(_ frame: CapturedFrame, receivedAt received: ContinuousClock.Instant) {
        defer { shared.withLock { $0.pending -= 1 } }
        guard shared.withLock({ !$0.encodingDone }) else { return }
        liveSound?.frame(presented: frame.presentationTime.seconds, received: received)
        do throws(MovieError) {
            let encoder = if let existing = self.encoder { existing } else { try makeEncoder(for: frame) }
            let keyframe = shared.withLock { shared -> Bool in
                defer { shared.keyframeRequested = false }
                return shared.keyframeRequested
            }
            var packets = try encoder.append(frame.frame, keyframe: keyframe)
            if let chunk = simulatedSound?.chunk(through: frame) { packets += try encoder.append(chunk) }
            enqueue(packets)
        } catch {
            finishEncoding(error: error)
        }
    }

    /// A live microphone's `chunk`, placed on the frames' timeline; dropped before the first frame.
    private func encode(_ chunk: AudioChunk) {
        guard let encoder, shared.withLock({ !$0.encodingDone }), let placed = liveSound?.place(chunk) else { return }
        do throws(MovieError) {
            enqueue(try encoder.append(placed))
        } catch {
            finishEncoding(error: error)
        }
    }

    private func makeEncoder(for frame: CapturedFrame) throws(MovieError) -> LiveEncoder {
        let sound = settings.sound.map { MovieFileWriter.AudioFormat(sampleRate: $0.sampleRate, channelCount: $0.channelCount) }
        let encoder = try LiveEncoder(size: PixelSize(width: frame.buffer.width, height: frame.buffer.height),
                                      frameRate: max(Int((1 / frame.frameDuration.seconds).rounded()), 1), bitRate: settings.bitRate,
                                      encoder: settings.encoder, audio: sound)
        self.encoder = encoder
        shared.withLock { $0.parameters = encoder.parameters }
        return encoder
    }

    /// Queues `packets` for the send thread, and gives them to the taps; a group of pictures the
    /// queue drops is published.
    private func enqueue(_ packets: [EncodedPacket]) {
        guard !packets.isEmpty, let parameters = encoder?.parameters else { return }
        for tap in shared.withLock({ Array($0.taps.values) }) { tap(packets, parameters) }
        let dropped = shared.withLock { shared -> [Int] in
            var dropped: [Int] = []
            for packet in packets {
                let (groups, frames) = (shared.queue.droppedGroups, shared.queue.droppedFrames)
                shared.queue.push(packet)
                if shared.queue.droppedGroups > groups { dropped.append(shared.queue.droppedFrames - frames) }
            }
            return dropped
        }
        for frames in dropped { publish(.droppedGroup(frames: frames)) }
    }

    /// Drains the encoders (unless `error` stopped them) and tells the send thread no more comes.
    private func finishEncoding(error: MovieError?) {
        guard !shared.withLock({ $0.encodingDone }) else { return }
        var error = error
        if error == nil, let encoder {
            do {
                enqueue(try encoder.finish())
            } catch let failure {
                error = failure
            }
        }
        stopMicrophone()
        shared.withLock { shared in (shared.encodingDone, shared.encodingError, shared.accepting) = (true, error, false) }
    }

    // MARK: On the send thread

    private func send() {
        guard let parameters = waitForParameters() else { return end(.stopped, event: .stopped) }
        var backoff = ReconnectBackoff(seed: UInt64.random(in: 0...UInt64.max))
        var attempt = 0
        while true {
            let lost: MovieError
            do throws(FLVPublisher.Failure) {
                shared.withLock { $0.writingSince = .now }
                let publisher = try FLVPublisher(url: url, parameters: parameters, bitRate: settings.bitRate, timeout: settings.timeout)
                connected(publisher, attempt: attempt)
                backoff.reset()
                do throws(MovieError) {
                    try sendQueued(through: publisher)
                    try publisher.finish()
                    let error = shared.withLock { $0.encodingError }
                    return end(error == nil ? .stopped : .failed, event: error.map { .failed($0) } ?? .stopped)
                } catch {
                    lost = error
                }
            } catch {
                // A first connection never made (nothing there, or the server refused the app or
                // the key in its answer) ends the stream: the URL is wrong. Later the server is
                // tried again, even one answering with a refusal: the publisher it still holds may
                // be this stream's own lost connection ("Already publishing").
                if attempt == 0 { return end(.failed, event: .failed(error.error)) }
                lost = error.error
            }
            let delay = backoff.next()
            shared.withLock { shared in
                shared.current.state = shared.isStalled(at: .now) ? .stalled : .reconnecting
                (shared.current.lastError, shared.writingSince) = (lost.message, nil)
                shared.rate.reset()
            }
            publish(.disconnected(lost, retryAfter: delay))
            attempt += 1
            if waitWhileRunning(seconds: delay) { return end(.stopped, event: .stopped) }
        }
    }

    /// The stream's parameters once the first frame made the encoders; nil when it stopped before.
    private func waitForParameters() -> LiveStreamParameters? {
        shared.wait { shared in
            shared.parameters == nil && !shared.encodingDone ? .waitForChange(until: nil) : .done(shared.parameters)
        }
    }

    /// A connection is up: a reconnection starts the queue again at a keyframe the encoder is
    /// asked for; the last connection's error is over.
    private func connected(_ publisher: FLVPublisher, attempt: Int) {
        shared.withLock { shared in
            if attempt > 0 {
                shared.queue.restartAtKeyframe()
                shared.keyframeRequested = true
                shared.current.reconnects += 1
            }
            (shared.current.state, shared.current.lastError, shared.writingSince) = (.live, nil, nil)
            shared.rate.record(bytes: publisher.bytesSent, at: .now)
        }
        publish(.connected(attempt: attempt))
    }

    /// Sends packets as they come until the encoders are drained and the queue is empty.
    private func sendQueued(through publisher: FLVPublisher) throws(MovieError) {
        while let packet = nextPacket() {
            try publisher.write(packet)
            let bytes = publisher.bytesSent
            shared.withLock { shared in
                if packet.track == .video { shared.current.sentFrames += 1 }
                shared.writingSince = nil
                shared.rate.record(bytes: bytes, at: .now)
            }
        }
    }

    /// The next packet to send, waiting for one, its write counted from now; nil once the
    /// encoders are drained and all is sent.
    private func nextPacket() -> EncodedPacket? {
        shared.wait { shared in
            if shared.queue.isEmpty, !shared.encodingDone { return .waitForChange(until: nil) }
            let packet = shared.queue.pop()
            if packet != nil { shared.writingSince = .now }
            return .done(packet)
        }
    }

    /// Waits `seconds`, or less when the stream is stopped; true when it was.
    private func waitWhileRunning(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        return shared.wait { shared in
            shared.encodingDone || ContinuousClock.now >= deadline ? .done(shared.encodingDone) : .waitForChange(until: deadline)
        }
    }

    /// Stops a live microphone (its reader thread then ends): when the encoders are drained, and
    /// when the stream ends for good, which a failed stream does without being stopped.
    private func stopMicrophone() {
        if case .live(let microphone) = settings.sound { microphone.stop() }
    }

    private func end(_ state: LiveStreamOutput.State, event: Event) {
        stopMicrophone()
        let (final, waiters) = shared.withLock { shared -> (Status, [CheckedContinuation<Status, Never>]) in
            (shared.over, shared.accepting, shared.current.state) = (true, false, state)
            shared.lasted = (ContinuousClock.now - shared.started).seconds
            shared.writingSince = nil
            shared.rate.reset()
            if case .failed(let error) = event { shared.current.lastError = error.message }
            defer { shared.stopWaiters = [] }
            return (shared.status, shared.stopWaiters)
        }
        publish(event)
        for waiter in waiters { waiter.resume(returning: final) }
    }
}
