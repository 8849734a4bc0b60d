/// A sound whose every sample is fixed by its place on the camera's timeline (index 0 at t = 0):
/// the simulated microphone, or a video file's own track. A recorder pulls exactly the samples up
/// to each frame's end, so the sound stays in step with the frames whatever the pace.
public protocol TimelineSound: Sendable {
    /// What the sound is, for the terminal ("simulated microphone", "the sound of clip.mp4").
    var name: String { get }
    /// Sample frames a second.
    var sampleRate: Int { get }
    /// Channels of each sample frame.
    var channelCount: Int { get }

    /// `count` sample frames from `index` on, interleaved.
    func samples(from index: Int64, count: Int) -> [Float]
}
