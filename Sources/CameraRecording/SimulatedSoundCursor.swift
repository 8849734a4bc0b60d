import CameraAudio
import CameraCapture
import CameraCore

/// A `TimelineSound` (the simulated microphone, a file's own track) read up to each frame's end on
/// the camera's timeline, so it stays in step with the frames: one chunk per frame, from where the
/// last frame's ended.
struct SimulatedSoundCursor {
    let sound: any TimelineSound
    /// The sound's next sample frame, on the camera's timeline; nil before the first frame.
    private var nextSample: Int64?

    init(_ sound: any TimelineSound) {
        self.sound = sound
    }

    /// The samples from the last frame's end (or this frame's start) to `frame`'s end; nil when there are none.
    mutating func chunk(through frame: CapturedFrame) -> AudioChunk? {
        let rate = Double(sound.sampleRate)
        let start = nextSample ?? Int64((frame.presentationTime.seconds * rate).rounded())
        let end = Int64(((frame.presentationTime.seconds + frame.frameDuration.seconds) * rate).rounded())
        guard end > start else { return nil }
        nextSample = end
        return AudioChunk(samples: sound.samples(from: start, count: Int(end - start)), sampleRate: sound.sampleRate,
                          channelCount: sound.channelCount, presentationTime: MediaTime(value: start, timescale: Int32(sound.sampleRate)))
    }
}
