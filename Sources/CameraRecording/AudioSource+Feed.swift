import CameraAudio
import CameraCore
import CameraMovie
import Foundation

extension AudioSource {
    /// Starts the microphone for a take or a stream, before any frame reaches it: the timeline its
    /// chunks are placed on, whose zero is now.
    func startTimeline() throws(MovieError) -> LiveSoundTimeline {
        do {
            try start()
        } catch {
            throw MovieError("the microphone \(name) did not start: \(error)")
        }
        return LiveSoundTimeline(microphoneZero: .now)
    }

    /// Reads the microphone on a thread of its own, handing each chunk to `deliver` on `worker`,
    /// until it is stopped (its next read then throws and the thread ends).
    func feed(to worker: SerialWorker, _ deliver: @escaping @Sendable (AudioChunk) -> Void) {
        Thread { [self] in
            while let chunk = try? readChunk() {
                worker.submit { deliver(chunk) }
            }
        }.start()
    }
}
