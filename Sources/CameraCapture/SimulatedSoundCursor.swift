import CameraAudio
import CameraCore

/// The simulated microphone read up to each frame's end on the camera's timeline, so its clicks
/// meet the simulated camera's sync marks exactly: one chunk per frame, from where the last
/// frame's ended.
struct SimulatedSoundCursor {
    let microphone: SimulatedMicrophone
    /// The microphone's next sample, on the camera's timeline; nil before the first frame.
    private var nextSample: Int64?

    init(_ microphone: SimulatedMicrophone) {
        self.microphone = microphone
    }

    /// The samples from the last frame's end (or this frame's start) to `frame`'s end; nil when there are none.
    mutating func chunk(through frame: CapturedFrame) -> AudioChunk? {
        let rate = Double(microphone.sampleRate)
        let start = nextSample ?? Int64((frame.presentationTime.seconds * rate).rounded())
        let end = Int64(((frame.presentationTime.seconds + frame.frameDuration.seconds) * rate).rounded())
        guard end > start else { return nil }
        nextSample = end
        return AudioChunk(samples: microphone.samples(from: start, count: Int(end - start)), sampleRate: microphone.sampleRate,
                          channelCount: 1, presentationTime: MediaTime(value: start, timescale: Int32(microphone.sampleRate)))
    }
}
