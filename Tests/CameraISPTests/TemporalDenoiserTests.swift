import CameraCore
@testable import CameraISP
import Testing

/// The temporal denoiser's eight-lane blend against the same blend written one pixel at a time in
/// plain Float arithmetic, and the lane operations it is built from against the standard library's.
@Suite("Temporal denoiser's blend")
struct TemporalDenoiserTests {
    @Test("the square root matches Float's within 10⁻⁵ relative", arguments: [
        Float(0), 1e-30, 1e-10, 0.001, 0.5, 1, 2, 9, 36, 1000, 1e6, 3e30,
    ])
    func squareRoot(value: Float) {
        let root = DenoiserMath.squareRoot(SIMD8(repeating: value))
        for lane in 0..<8 {
            #expect(abs(root[lane] - value.squareRoot()) <= 1e-5 * value.squareRoot(), "√\(value) = \(root[lane])")
        }
    }

    @Test("at-least and replacing pick the lanes a comparison and a choice would")
    func laneChoice() {
        let values = SIMD8<Float>(-1, 0, 0.5, 0.999_999, 1, 1.000_001, 2, .greatestFiniteMagnitude)
        let mask = DenoiserMath.atLeast(values, 1)
        let chosen = DenoiserMath.replacing(values, with: 7, where: mask)
        for lane in 0..<8 {
            #expect((mask[lane] == -1) == (values[lane] >= 1) && (mask[lane] == 0 || mask[lane] == -1))
            #expect(chosen[lane] == (values[lane] >= 1 ? 7 : values[lane]))
        }
    }

    /// A 64×64 scene at 1/100 s, gain 4: a grey ramp, a lamp above white at (8…23, 8…23), and a
    /// bright square whose left edge is at `square`.
    static func frame(square: Int, seed: UInt64) throws -> Frame {
        let noisy = try NoisyFrames.raw(width: 64, height: 64, gain: 4, seed: seed) { x, y in
            if (8..<24).contains(x) && (8..<24).contains(y) { return SIMD3(repeating: 2) }
            if (square..<(square + 16)).contains(x) && (32..<48).contains(y) { return SIMD3(0.5, 0.4, 0.3) }
            return SIMD3(repeating: 0.02 + 0.002 * Double(x))
        }
        var metadata = noisy.metadata
        metadata.exposureDuration = MediaTime(seconds: 0.01, preferredTimescale: 1_000_000)
        return Frame(buffer: noisy.buffer, presentationTime: .zero, sequenceNumber: seed, metadata: metadata)
    }

    @Test("the blend of a stream's second frame is the per-pixel formula's within float rounding, still, moved and clipped")
    func matchesPerPixelFormula() throws {
        let (first, second) = (try Self.frame(square: 20, seed: 1), try Self.frame(square: 28, seed: 2))
        var stream = ImagePipeline(denoising: .temporal)
        try stream.develop(first)
        let previous = stream.developed
        try stream.develop(second)
        let current = try NoisyFrames.developed(second, .spatial)
        let noise = DevelopedNoise(of: second), clip = current.clipLevel
        let scale = TemporalDenoiser.exposure(of: second) / TemporalDenoiser.exposure(of: first)
        var regimes = (still: 0, moved: 0, clipped: 0), worst: Float = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let new = current[x, y], old = previous[x, y]
                let before = SIMD3(min(old.x * scale.x, clip), min(old.y * scale.y, clip), min(old.z * scale.z, clip))
                let d = new - before
                let variance = max((new * DevelopedNoise.luma).sum(), 0) * noise.scale + noise.offset
                let deviations = ((d * d).sum() / 3 / variance).squareRoot()
                let moved = min(max((deviations - TemporalDenoiser.motionStart) / (TemporalDenoiser.motionEnd - TemporalDenoiser.motionStart), 0), 1)
                var k = TemporalDenoiser.stillWeight + (1 - TemporalDenoiser.stillWeight) * moved
                if new.max() >= clip {
                    k = 1
                    regimes.clipped += 1
                } else if moved == 0 {
                    regimes.still += 1
                } else if moved == 1 {
                    regimes.moved += 1
                }
                let expected = before + k * d, blended = stream.developed[x, y]
                for channel in 0..<3 {
                    worst = max(worst, abs(blended[channel] - expected[channel]) / (abs(expected[channel]) + 1e-3))
                }
            }
        }
        #expect(worst < 1e-4, "largest relative difference \(worst)")
        #expect(regimes.still > 1000, "\(regimes)")
        #expect(regimes.moved > 50, "\(regimes)")
        #expect(regimes.clipped >= 64, "\(regimes)")
    }
}
