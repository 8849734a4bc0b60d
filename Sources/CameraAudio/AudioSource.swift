import CameraCore

/// A microphone: chunks of samples stamped on the media timeline from 0 at `start()`, taken one
/// after another with `nextChunk()` (which waits for the next one as a real device does). One
/// consumer reads it; `stop()` may come from anywhere.
public protocol AudioSource: AnyObject, Sendable {
    /// What the source is, for the terminal and `/state` ("simulated microphone", "ALSA hw:1,0").
    var name: String { get }
    /// Sample frames a second of every chunk.
    var sampleRate: Int { get }
    /// Channels of every chunk.
    var channelCount: Int { get }

    /// Opens the device and starts its timeline at 0.
    func start() throws(AudioError)
    /// The next chunk, when it has been captured.
    func nextChunk() async throws(AudioError) -> AudioChunk
    /// Closes the device; `nextChunk()` then throws until the next `start()`.
    func stop()
}
