import CameraAudio
import CameraCore
import Foundation
import Testing

/// The simulated microphone measured as a recording would hear it: where its clicks are, what its
/// tone is, and that a seed repeats it.
@Suite("Simulated microphone")
struct SimulatedMicrophoneTests {
    /// The first sample of each run above `threshold` that follows at least 10 ms below it.
    static func onsets(_ samples: [Float], threshold: Float = 0.5) -> [Int] {
        var onsets: [Int] = [], lastLoud = -Int.max / 2
        for (index, sample) in samples.enumerated() where abs(sample) > threshold {
            if index - lastLoud > 480 { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }

    @Test("Clicks, when asked for, start exactly at every whole second from 1 s and last 2 ms (96 samples)")
    func clicksAtWholeSeconds() {
        let microphone = SimulatedMicrophone(seed: 3, clicks: true)
        let samples = microphone.samples(from: 0, count: 48_000 * 7 / 2)
        #expect(Self.onsets(samples) == [48_000, 96_000, 144_000])
        for start in [48_000, 96_000, 144_000] {
            #expect(samples[start..<start + 96].allSatisfy { abs($0) == 1 }, "the click at \(start) is full scale throughout")
            #expect(abs(samples[start + 96]) < 0.2 && abs(samples[start - 1]) < 0.2, "the click at \(start) lasts 96 samples")
        }
        #expect(microphone.sample(at: 48_000 * 3_600) == 1, "an hour in, the click is still on its sample")
    }

    @Test("Without clicks (the default) every sample stays at the tone's level, the whole seconds too")
    func noClicksByDefault() {
        let samples = SimulatedMicrophone(seed: 3).samples(from: 0, count: 48_000 * 7 / 2)
        #expect(Self.onsets(samples).isEmpty)
        #expect(samples.allSatisfy { abs($0) < 0.2 }, "peak \(samples.map(abs).max() ?? 0)")
    }

    @Test("The tone is 1 kHz (zero crossings over a second) at −20 dBFS within 0.5 dB, noise included")
    func toneFrequencyAndLevel() {
        let samples = SimulatedMicrophone(seed: 5).samples(from: 0, count: 48_000)
        let rising = zip(samples, samples.dropFirst()).filter { $0 <= 0 && $1 > 0 }.count
        #expect(rising == 1_000)
        let rms = (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        let level = 20 * log10(rms * 2.0.squareRoot())
        #expect(abs(level + 20) < 0.5, "\(level) dBFS")
        let tone = (0..<48_000).map { Double(SimulatedMicrophone.toneAmplitude) * sin(2 * Double.pi * Double($0) / 48) }
        let residual = zip(samples, tone).reduce(0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) }
        let noiseLevel = 20 * log10((residual / 48_000).squareRoot() * 2.0.squareRoot())
        #expect(abs(noiseLevel + 50) < 0.5, "noise at \(noiseLevel) dBFS")
    }

    @Test("A seed gives the same samples to the bit, from any starting index; another seed other noise")
    func deterministicBySeed() {
        let first = SimulatedMicrophone(seed: 42).samples(from: 10_000, count: 4_096).map(\.bitPattern)
        let again = SimulatedMicrophone(seed: 42).samples(from: 10_000, count: 4_096).map(\.bitPattern)
        let pieces = SimulatedMicrophone(seed: 42)
        let joined = (pieces.samples(from: 10_000, count: 1_000) + pieces.samples(from: 11_000, count: 3_096)).map(\.bitPattern)
        let other = SimulatedMicrophone(seed: 43).samples(from: 10_000, count: 4_096).map(\.bitPattern)
        #expect(first == again)
        #expect(first == joined)
        #expect(zip(first, other).filter { $0 != $1 }.count > 4_000)
    }

    @Test("readChunk hands out 1 024-sample chunks from 0, stamped by their first sample, the same as samples(from:)")
    func chunksFollowTheTimeline() async throws {
        let microphone = SimulatedMicrophone(seed: 9)
        microphone.start()
        var chunks: [AudioChunk] = []
        for _ in 0..<3 { chunks.append(try microphone.readChunk()) }
        microphone.stop()
        #expect(chunks.map(\.presentationTime) == [0, 1_024, 2_048].map { MediaTime(value: $0, timescale: 48_000) })
        #expect(chunks.allSatisfy { $0.frameCount == 1_024 && $0.sampleRate == 48_000 && $0.channelCount == 1 })
        #expect(chunks.flatMap(\.samples) == microphone.samples(from: 0, count: 3_072))
        let error = #expect(throws: AudioError.self) { _ = try microphone.readChunk() }
        #expect(error?.message == "the simulated microphone is not started — call start() before reading it")
    }
}
