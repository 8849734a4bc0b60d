import CameraAudio
import CameraCore
import Foundation

/// A microphone that captures in real time, as a sound card does: a 10 ms period of a 1 kHz
/// tone each 10 ms of the clock from its start (a device's pace, not a test's synchronisation).
public final class PacedMicrophone: AudioSource, @unchecked Sendable {
    public let name = "paced test microphone"
    public let sampleRate = 48_000
    public let channelCount = 1
    private let started = Locked<ContinuousClock.Instant?>(nil)
    private let position = Locked<Int64>(0)

    public init() {}

    public func start() throws(AudioError) { started.withLock { $0 = .now } }

    public func readChunk() throws(AudioError) -> AudioChunk {
        guard let started = started.withLock({ $0 }) else { throw AudioError("the paced microphone is stopped") }
        let first = position.withLock { position -> Int64 in
            defer { position += 480 }
            return position
        }
        let wait = started + .seconds(Double(first + 480) / 48_000) - .now
        if wait > .zero { Thread.sleep(forTimeInterval: wait.seconds) }
        let samples = (0..<480).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double(first + Int64($0)) / 48_000)) }
        return AudioChunk(samples: samples, sampleRate: 48_000, channelCount: 1, presentationTime: MediaTime(value: first, timescale: 48_000))
    }

    public func stop() { started.withLock { $0 = nil } }
}
