import CameraCore

/// A microphone: chunks of samples stamped on the media timeline from 0 at `start()`, taken one
/// after another with `readChunk()`, which blocks until the next one is captured, as a real
/// device's read does: its reader runs on a thread of its own, so that capture never waits for
/// the concurrency pool's few threads. One consumer reads it; `stop()` may come from anywhere.
public protocol AudioSource: AnyObject, Sendable {
    /// What the source is, for the terminal and `/state` ("simulated microphone", "ALSA hw:1,0").
    var name: String { get }
    /// Sample frames a second of every chunk.
    var sampleRate: Int { get }
    /// Channels of every chunk.
    var channelCount: Int { get }

    /// Opens the device and starts its timeline at 0.
    func start() throws(AudioError)
    /// The next chunk, once it has been captured (blocking the calling thread).
    func readChunk() throws(AudioError) -> AudioChunk
    /// Closes the device; `readChunk()` then throws until the next `start()`.
    func stop()
}
