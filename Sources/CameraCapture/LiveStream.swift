import CameraAudio
import CameraCore
import CameraMovie
import Dispatch
import Foundation

/// One stream of a `LiveStreamOutput`, from `start` to its end: frames are encoded on a serial
/// queue, the packets wait in a bounded `LiveSendQueue`, and a thread of its own sends them,
/// connecting again with `ReconnectBackoff` when the connection is lost. A connection that takes
/// no packet for the timeout while packets wait reads `stalled` at once, and stays so while new
/// connections stall too; the bitrate is what the socket took over the last second. The state the
/// three share is guarded by `condition`; the encoder is used only on the encoding queue. A live
/// microphone is read on a thread of its own, its chunks placed on the frames' timeline
/// (`LiveSoundTimeline`) on the encoding queue, as a take's are.
final class LiveStream: @unchecked Sendable {
    typealias Status = LiveStreamOutput.Status
    typealias Event = LiveStreamOutput.Event
    /// Takes each batch of packets the encoders make, on the encoding queue, with the stream's
    /// parameters: a take that shares the stream's encode.
    typealias PacketTap = @Sendable ([EncodedPacket], LiveStreamParameters) -> Void

    let url: LiveStreamURL
    private let settings: LiveStreamOutput.Settings
    private let publish: @Sendable (Event) -> Void
    private let encoding = DispatchQueue(label: "camerasun.live-encoding")

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: LiveSendQueue
    private var parameters: LiveStreamParameters?
    /// Frames handed to the encoding queue and not yet encoded.
    private var pending = 0
    private var accepting = true
    /// No more packets come: stopped (or the encoder failed) and the encoders drained.
    private var encodingDone = false
    private var encodingError: MovieError?
    /// The next frame is encoded as an IDR (a new connection starts on one).
    private var keyframeRequested = false
    private var handOffDrops = 0
    private var current = Status()
    /// When the send thread began the connection or packet it is on now; nil between packets.
    private var writingSince: ContinuousClock.Instant?
    private var rate = LiveStreamRate()
    private var over = false
    private let started = ContinuousClock.now
    /// Seconds from start to the end, once over.
    private var lasted: Double?
    private var stopWaiters: [CheckedContinuation<Status, Never>] = []
    private var taps: [UInt64: PacketTap] = [:]
    private var nextTap: UInt64 = 0

    // Used only on the encoding queue.
    private var encoder: LiveEncoder?
    private var simulatedSound: SimulatedSoundCursor?
    private var liveSound: LiveSoundTimeline?

    /// A stream to `url`; a live microphone in `settings` must have been started (`liveSound` its
    /// timeline), and is read from now on and stopped when the stream ends.
    init(url: LiveStreamURL, settings: LiveStreamOutput.Settings, liveSound: LiveSoundTimeline? = nil,
         publish: @escaping @Sendable (Event) -> Void) {
        (self.url, self.settings, self.publish, self.liveSound) = (url, settings, publish, liveSound)
        queue = LiveSendQueue(durationLimit: settings.queueDuration, byteLimit: settings.queueBytes)
        switch settings.sound {
        case .simulated(let microphone): simulatedSound = SimulatedSoundCursor(microphone)
        case .live(let microphone): microphone.feed(to: encoding) { [self] chunk in encode(chunk) }
        case nil: break
        }
        (current.state, current.url) = (.connecting, url.masked)
        Thread { [self] in send() }.start()
    }

    var status: Status { locked { statusNow } }

    var isOver: Bool { locked { over } }

    /// The status with the queue's counts, under the lock.
    private var statusNow: Status {
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

    /// Whether the send thread has been on one connection attempt or one packet for the timeout:
    /// the server takes nothing while packets wait. Under the lock.
    private func isStalled(at now: ContinuousClock.Instant) -> Bool {
        writingSince.map { now - $0 >= .seconds(settings.timeout) } ?? false
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// The H.264 encoder's FFmpeg name.
    var encoderName: String { settings.encoder }

    /// Adds `tap` to the packets from the next frame on, which is made a keyframe (a take starts on
    /// one); nil when the stream no longer encodes. `removeTap` with the id ends it.
    func addTap(_ tap: @escaping PacketTap) -> UInt64? {
        locked {
            guard accepting else { return nil }
            nextTap += 1
            (taps[nextTap], keyframeRequested) = (tap, true)
            return nextTap
        }
    }

    func removeTap(_ id: UInt64) {
        locked { taps[id] = nil }
    }

    /// From the capture loop: hands `frame` to the encoding queue, or drops it when the hand-off is full.
    func receive(_ frame: CapturedFrame) {
        let accepted = locked { () -> Bool in
            guard accepting else { return false }
            guard pending < LiveStreamOutput.handOffLimit else {
                handOffDrops += 1
                return false
            }
            pending += 1
            return true
        }
        guard accepted else { return }
        let received = ContinuousClock.now
        encoding.async { self.encode(frame, receivedAt: received) }
    }

    /// Stops taking frames, drains the encoders, waits for the send thread to send what is queued
    /// and the trailer; returns the final status.
    func stop() async -> Status {
        await withCheckedContinuation { continuation in
            let final = locked { () -> Status? in
                accepting = false
                if over { return statusNow }
                stopWaiters.append(continuation)
                return nil
            }
            if let final { continuation.resume(returning: final) }
            encoding.async { self.finishEncoding(error: nil) }
        }
    }

    // MARK: On the encoding queue

    private func encode(_ frame: CapturedFrame, receivedAt received: ContinuousClock.Instant) {
        defer { locked { pending -= 1 } }
        guard locked({ !encodingDone }) else { return }
        liveSound?.frame(presented: frame.presentationTime.seconds, received: received)
        do throws(MovieError) {
            let encoder = if let existing = self.encoder { existing } else { try makeEncoder(for: frame) }
            let keyframe = locked { () -> Bool in
                defer { keyframeRequested = false }
                return keyframeRequested
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
        guard let encoder, locked({ !encodingDone }), let placed = liveSound?.place(chunk) else { return }
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
        locked {
            parameters = encoder.parameters
            condition.broadcast()
        }
        return encoder
    }

    /// Queues `packets` for the send thread, and gives them to the taps; a group of pictures the
    /// queue drops is published.
    private func enqueue(_ packets: [EncodedPacket]) {
        guard !packets.isEmpty, let parameters = encoder?.parameters else { return }
        for tap in locked({ Array(taps.values) }) { tap(packets, parameters) }
        let dropped = locked { () -> [Int] in
            var dropped: [Int] = []
            for packet in packets {
                let (groups, frames) = (queue.droppedGroups, queue.droppedFrames)
                queue.push(packet)
                if queue.droppedGroups > groups { dropped.append(queue.droppedFrames - frames) }
            }
            condition.broadcast()
            return dropped
        }
        for frames in dropped { publish(.droppedGroup(frames: frames)) }
    }

    /// Drains the encoders (unless `error` stopped them) and tells the send thread no more comes.
    private func finishEncoding(error: MovieError?) {
        guard !locked({ encodingDone }) else { return }
        var error = error
        if error == nil, let encoder {
            do {
                enqueue(try encoder.finish())
            } catch let failure {
                error = failure
            }
        }
        stopMicrophone()
        locked {
            (encodingDone, encodingError, accepting) = (true, error, false)
            condition.broadcast()
        }
    }

    // MARK: On the send thread

    private func send() {
        guard let parameters = waitForParameters() else { return end(.stopped, event: .stopped) }
        var backoff = ReconnectBackoff(seed: UInt64.random(in: 0...UInt64.max))
        var attempt = 0
        while true {
            let lost: MovieError
            do throws(FLVPublisher.Failure) {
                locked { writingSince = .now }
                let publisher = try FLVPublisher(url: url, parameters: parameters, bitRate: settings.bitRate, timeout: settings.timeout)
                connected(publisher, attempt: attempt)
                backoff.reset()
                do throws(MovieError) {
                    try sendQueued(through: publisher)
                    try publisher.finish()
                    let error = locked { encodingError }
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
            locked {
                current.state = isStalled(at: .now) ? .stalled : .reconnecting
                (current.lastError, writingSince) = (lost.message, nil)
                rate.reset()
            }
            publish(.disconnected(lost, retryAfter: delay))
            attempt += 1
            if waitWhileRunning(seconds: delay) { return end(.stopped, event: .stopped) }
        }
    }

    /// The stream's parameters once the first frame made the encoders; nil when it stopped before.
    private func waitForParameters() -> LiveStreamParameters? {
        locked {
            while parameters == nil, !encodingDone { condition.wait() }
            return parameters
        }
    }

    /// A connection is up: a reconnection starts the queue again at a keyframe the encoder is
    /// asked for; the last connection's error is over.
    private func connected(_ publisher: FLVPublisher, attempt: Int) {
        locked {
            if attempt > 0 {
                queue.restartAtKeyframe()
                keyframeRequested = true
                current.reconnects += 1
            }
            (current.state, current.lastError, writingSince) = (.live, nil, nil)
            rate.record(bytes: publisher.bytesSent, at: .now)
        }
        publish(.connected(attempt: attempt))
    }

    /// Sends packets as they come until the encoders are drained and the queue is empty.
    private func sendQueued(through publisher: FLVPublisher) throws(MovieError) {
        while let packet = nextPacket() {
            try publisher.write(packet)
            let bytes = publisher.bytesSent
            locked {
                if packet.track == .video { current.sentFrames += 1 }
                writingSince = nil
                rate.record(bytes: bytes, at: .now)
            }
        }
    }

    /// The next packet to send, waiting for one, its write counted from now; nil once the
    /// encoders are drained and all is sent.
    private func nextPacket() -> EncodedPacket? {
        locked {
            while queue.isEmpty, !encodingDone { condition.wait() }
            let packet = queue.pop()
            if packet != nil { writingSince = .now }
            return packet
        }
    }

    /// Waits `seconds`, or less when the stream is stopped; true when it was.
    private func waitWhileRunning(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return locked {
            while !encodingDone, condition.wait(until: deadline) {}
            return encodingDone
        }
    }

    /// Stops a live microphone (its reader thread then ends): when the encoders are drained, and
    /// when the stream ends for good, which a failed stream does without being stopped.
    private func stopMicrophone() {
        if case .live(let microphone) = settings.sound { microphone.stop() }
    }

    private func end(_ state: LiveStreamOutput.State, event: Event) {
        stopMicrophone()
        let (final, waiters) = locked { () -> (Status, [CheckedContinuation<Status, Never>]) in
            (over, accepting, current.state, lasted) = (true, false, state, (ContinuousClock.now - started).seconds)
            writingSince = nil
            rate.reset()
            if case .failed(let error) = event { current.lastError = error.message }
            defer { stopWaiters = [] }
            return (statusNow, stopWaiters)
        }
        publish(event)
        for waiter in waiters { waiter.resume(returning: final) }
    }
}
