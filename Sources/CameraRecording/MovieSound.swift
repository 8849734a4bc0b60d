import CameraAudio

/// The sound a take records beside its frames.
public enum MovieSound: Sendable {
    /// A sound fixed by its timeline — the simulated microphone, or a `file:` source's own track
    /// (`FileSound`) — pulled up to each frame's end on the camera's timeline, so it stays in step
    /// with the frames (the simulated microphone's clicks meet the simulated camera's sync marks
    /// exactly, a file's sound plays with its pictures).
    case simulated(any TimelineSound)
    /// A live microphone (ALSA), started with the take and read as it captures; its chunks are
    /// placed on the camera's timeline by `LiveSoundTimeline`.
    case live(any AudioSource)

    var sampleRate: Int {
        switch self {
        case .simulated(let sound): sound.sampleRate
        case .live(let source): source.sampleRate
        }
    }

    var channelCount: Int {
        switch self {
        case .simulated(let sound): sound.channelCount
        case .live(let source): source.channelCount
        }
    }
}
