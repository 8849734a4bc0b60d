import CameraAudio

/// The sound a take records beside its frames.
public enum MovieSound: Sendable {
    /// The simulated microphone, pulled up to each frame's end on the camera's timeline, so its
    /// clicks meet the simulated camera's sync marks exactly.
    case simulated(SimulatedMicrophone)
    /// A live microphone (ALSA), started with the take and read as it captures; its chunks are
    /// placed on the camera's timeline by `LiveSoundTimeline`.
    case live(any AudioSource)

    var sampleRate: Int {
        switch self {
        case .simulated(let microphone): microphone.sampleRate
        case .live(let source): source.sampleRate
        }
    }

    var channelCount: Int {
        switch self {
        case .simulated(let microphone): microphone.channelCount
        case .live(let source): source.channelCount
        }
    }
}
