import CameraCore

/// Places a live microphone's chunks — stamped from 0 at its start, on its own clock — on the
/// camera's timeline, for one take.
///
/// The frames say how the host's clock maps to their presentation times: the least of
/// `received − presented` over the frames seen, the frame that reached the take fastest (its
/// lag is the pipeline's least). The microphone's start is its zero on the host's clock. The
/// first chunk placed fixes where the take's sound starts; later chunks follow it sample by
/// sample, so the mapping's jitter makes no gaps or overlaps (the drift between the two clocks
/// over a take is not corrected).
struct LiveSoundTimeline {
    /// When the microphone's timeline was at 0.
    let microphoneZero: ContinuousClock.Instant
    /// The least of (received − microphone's zero) − presented over the frames, in seconds.
    private var lag: Double?
    /// The first placed chunk's first sample, on the microphone's and on the camera's timeline.
    private var origin: (microphone: Int64, camera: Int64)?
    /// The camera-timeline sample after the last chunk placed; nil before the first.
    private(set) var end: Int64?

    init(microphoneZero: ContinuousClock.Instant) {
        self.microphoneZero = microphoneZero
    }

    /// Takes in a frame presented at `presented` seconds that reached the take at `received`.
    mutating func frame(presented: Double, received: ContinuousClock.Instant) {
        let candidate = (received - microphoneZero).seconds - presented
        lag = min(lag ?? candidate, candidate)
    }

    /// `chunk` on the camera's timeline; nil before the first frame, when nothing says where it goes.
    mutating func place(_ chunk: AudioChunk) -> AudioChunk? {
        guard let lag else { return nil }
        let rate = Double(chunk.sampleRate)
        let sample = Int64((chunk.presentationTime.seconds * rate).rounded())
        let origin = self.origin ?? (sample, Int64(((chunk.presentationTime.seconds - lag) * rate).rounded()))
        self.origin = origin
        let start = origin.camera + sample - origin.microphone
        end = start + Int64(chunk.frameCount)
        return AudioChunk(samples: chunk.samples, sampleRate: chunk.sampleRate, channelCount: chunk.channelCount,
                          presentationTime: MediaTime(value: start, timescale: Int32(chunk.sampleRate)))
    }
}
