import CameraCore
import Synchronization

/// A real microphone through ALSA (libasound2): interleaved 48 kHz capture on a device name
/// (`default`, `hw:1,0`, `plughw:1,0`, `dsnoop:…`), in FLOAT_LE or S16_LE, delivered as Float32.
///
/// Each `readChunk()` is one blocking `snd_pcm_readi` of a period (about 10 ms) on a
/// `SerialWorker` of its own, so a wait for the device never holds a thread of the concurrency
/// pool. Timestamps count the samples read from the start. An overrun (the device's 100 ms buffer
/// filled because it was not read in time) is recovered with `snd_pcm_recover` and counted in
/// `overruns`; the samples it lost are accounted for from the wall clock — after the recovery the
/// timeline jumps to the time elapsed since the start, and the jump is added to `lostFrames` — so
/// audio after an overrun stays in sync with the camera's frames.
public final class ALSAMicrophone: AudioSource, @unchecked Sendable {
    // @unchecked: `capture` and `timeline` are touched only on `worker`, which is serial; the
    // counters are atomics.

    /// How the device hands samples over: the first it takes of FLOAT_LE and S16_LE, unless asked.
    public enum SampleFormat: String, Sendable, CaseIterable {
        case float32 = "FLOAT_LE"
        case int16 = "S16_LE"
    }

    /// Where a stream stands: the samples read and lost so far, and the instant it started.
    private struct Timeline {
        let started: ContinuousClock.Instant
        var position: Int64 = 0
    }

    /// The ALSA device name.
    public let device: String
    public var name: String { "ALSA \(device)" }
    public let sampleRate = Int(ALSACapture.rate)
    public let channelCount: Int
    /// The format asked for; nil lets the device choose.
    public let requestedFormat: SampleFormat?

    private let worker: SerialWorker
    private var capture: ALSACapture?
    private var timeline: Timeline?
    private let overrunCount = Atomic<Int>(0)
    private let lostFrameCount = Atomic<Int64>(0)
    private let format = Atomic<Int>(-1)

    /// A microphone on `device` with `channelCount` channels; nothing is opened until `start()`.
    public init(device: String, channelCount: Int = 1, format: SampleFormat? = nil) {
        (self.device, self.channelCount, requestedFormat) = (device, channelCount, format)
        worker = SerialWorker(name: "CameraAudio.ALSAMicrophone.\(device)")
    }

    /// Overruns recovered from since the start.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }
    /// Sample frames the overruns lost (the timeline skips them).
    public var lostFrames: Int64 { lostFrameCount.load(ordering: .relaxed) }
    /// The format the device delivers in; nil before `start()`.
    public var sampleFormat: SampleFormat? {
        let index = format.load(ordering: .relaxed)
        return index >= 0 ? SampleFormat.allCases[index] : nil
    }

    /// Opens and starts the device; throws naming the device and the remedy (no such device, busy,
    /// permission, a format or rate it cannot give).
    public func start() throws(AudioError) {
        let started = try worker.run { [self] () throws(AudioError) -> SampleFormat in
            capture = nil
            overrunCount.store(0, ordering: .relaxed)
            lostFrameCount.store(0, ordering: .relaxed)
            let opened = try ALSACapture(device: device, channelCount: channelCount, format: requestedFormat)
            (capture, timeline) = (opened, Timeline(started: .now))
            return opened.format
        }
        format.store(SampleFormat.allCases.firstIndex(of: started) ?? -1, ordering: .relaxed)
    }

    /// The next period of samples, stamped with its place on the timeline (one blocking read on the device's worker).
    public func readChunk() throws(AudioError) -> AudioChunk {
        try worker.run { [self] () throws(AudioError) in try readPeriod() }
    }

    /// Closes the device (after the read in progress, if any).
    public func stop() {
        worker.submit { [self] in (capture, timeline) = (nil, nil) }
    }

    /// One period, on `worker`; an overrun is counted, its gap added to the timeline, and the read retried.
    private func readPeriod() throws(AudioError) -> AudioChunk {
        guard let capture, var timeline else {
            throw AudioError("the ALSA microphone \(device) is not started — call start() before reading it")
        }
        while true {
            if let samples = try capture.read() {
                let chunk = AudioChunk(samples: samples, sampleRate: sampleRate, channelCount: channelCount,
                                       presentationTime: MediaTime(value: timeline.position, timescale: Int32(sampleRate)))
                timeline.position += Int64(chunk.frameCount)
                self.timeline = timeline
                return chunk
            }
            overrunCount.add(1, ordering: .relaxed)
            let elapsed = Int64(((ContinuousClock.now - timeline.started) / .seconds(1)) * Double(sampleRate))
            let gap = max(0, elapsed - timeline.position)
            timeline.position += gap
            lostFrameCount.add(gap, ordering: .relaxed)
        }
    }
}
