import CameraCore
import Foundation

/// A microphone for machines without one: 48 kHz mono, a 1 kHz tone at −20 dBFS over white noise
/// at −50 dBFS. With `clicks` (a test aid, asked for by `sim:SCENE,syncmarks`) it also clicks — a
/// 2 ms full-scale burst — starting exactly at every whole second of the timeline from t = 1 s;
/// the simulated camera with sync marks flashes the frame whose exposure holds each whole second,
/// so the distance from a flash to its click in a recording is the recording's A/V offset.
///
/// Levels are dBFS as AES17 defines them (RMS against a full-scale sine's), so the tone's peak is 0.1.
/// Every sample is a pure function of its index and the seed (`sample(at:)`): a recorder on a
/// virtual clock pulls exactly the audio up to each frame's time, and a seed gives the same
/// samples to the bit. `readChunk()` instead paces chunks of 1 024 samples by the wall clock, as a
/// real microphone delivers them.
public final class SimulatedMicrophone: AudioSource, TimelineSound {
    public static let rate = 48_000
    public static let toneFrequency = 1_000
    /// The tone's peak: −20 dBFS.
    public static let toneAmplitude: Float = 0.1
    /// The noise's RMS: −50 dBFS, that is 10^(−50/20) / √2.
    public static let noiseRMS = 0.003_162_277_7 / 2.0.squareRoot()
    /// Samples of one click: 2 ms.
    public static let clickLength = 96
    /// Samples from one click to the next: one second.
    public static let clickInterval = Int64(rate)
    /// Samples in each chunk `readChunk()` delivers.
    public static let chunkLength = 1_024

    public let name = "simulated microphone"
    public let sampleRate = SimulatedMicrophone.rate
    public let channelCount = 1
    public let seed: UInt64
    /// Whether it clicks at every whole second.
    public let clicks: Bool

    private struct Stream {
        let started: ContinuousClock.Instant
        var nextIndex: Int64 = 0
    }

    private let stream = Locked<Stream?>(nil)

    public init(seed: UInt64 = 1, clicks: Bool = false) {
        (self.seed, self.clicks) = (seed, clicks)
    }

    /// Sample `index` of the timeline (index 0 at t = 0).
    public func sample(at index: Int64) -> Float {
        if clicks, index >= Self.clickInterval, index % Self.clickInterval < Int64(Self.clickLength) {
            // A square wave at 3 kHz, full scale: a transient no codec smooths away.
            return index % 16 < 8 ? 1 : -1
        }
        let period = Int64(Self.rate / Self.toneFrequency)
        let phase = Double(((index % period) + period) % period) / Double(period)
        let tone = Double(Self.toneAmplitude) * sin(2 * Double.pi * phase)
        return Float(tone + noise(at: index))
    }

    /// `count` samples from `index` on.
    public func samples(from index: Int64, count: Int) -> [Float] {
        (0..<Int64(max(count, 0))).map { sample(at: index + $0) }
    }

    public func start() {
        stream.withLock { $0 = Stream(started: .now) }
    }

    /// The next 1 024 samples, returned when the last of them has been "captured" on the wall clock.
    public func readChunk() throws(AudioError) -> AudioChunk {
        let taken = stream.withLock { stream -> (ContinuousClock.Instant, Int64)? in
            guard let current = stream else { return nil }
            stream?.nextIndex += Int64(Self.chunkLength)
            return (current.started, current.nextIndex)
        }
        guard let (started, index) = taken else {
            throw AudioError("the simulated microphone is not started — call start() before reading it")
        }
        let end = Double(index + Int64(Self.chunkLength)) / Double(Self.rate)
        // The device's pace: the chunk is there once its last sample's time has come.
        let wait = started + .seconds(end) - .now
        if wait > .zero { Thread.sleep(forTimeInterval: wait.seconds) }
        return AudioChunk(samples: samples(from: index, count: Self.chunkLength), sampleRate: Self.rate, channelCount: 1,
                          presentationTime: MediaTime(value: index, timescale: Int32(Self.rate)))
    }

    public func stop() {
        stream.withLock { $0 = nil }
    }

    /// Uniform white noise of RMS `noiseRMS`, drawn from a generator seeded by the seed and `index`.
    private func noise(at index: Int64) -> Double {
        var generator = SplitMix64(seed: seed ^ (UInt64(bitPattern: index) &* 0xD1B5_4A32_D192_ED03))
        let uniform = Double(generator.next() >> 11) * 0x1p-53
        return (uniform * 2 - 1) * Self.noiseRMS * 3.0.squareRoot()
    }
}
