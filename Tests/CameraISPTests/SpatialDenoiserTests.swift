import CameraCore
@testable import CameraISP
import Testing

/// The spatial denoiser on frames with the simulated sensor's noise, against the same frames
/// developed without it.
@Suite("Spatial denoising of developed frames")
struct SpatialDenoiserTests {
    /// A grey card at 5% of white and gain 4 (ISO 200): luma SNR about 25 before denoising.
    static func greyCard(seed: UInt64 = 1) throws -> Frame {
        try NoisyFrames.raw(width: 128, height: 128, gain: 4, seed: seed) { _, _ in SIMD3(repeating: 0.05) }
    }

    static let inside = (x: 16..<112, y: 16..<112)

    @Test("on a flat grey card luma noise falls by 4× or more and its mean moves under 0.5%")
    func flatGrey() throws {
        let frame = try Self.greyCard()
        let before = NoisyFrames.statistics(try NoisyFrames.developed(frame, .off), Self.inside)
        let after = NoisyFrames.statistics(try NoisyFrames.developed(frame, .spatial), Self.inside)
        let factor = before.luma.deviation / after.luma.deviation
        #expect(factor >= 4, "luma σ \(before.luma.deviation) → \(after.luma.deviation)")
        #expect(abs(after.luma.mean / before.luma.mean - 1) < 0.005, "mean \(before.luma.mean) → \(after.luma.mean)")
    }

    /// The noise of luma, B − Y and R − Y in `region` of two frames of the same scene with other
    /// noise: the deviation of their difference over √2, whatever the scene.
    static func noise(_ a: LinearImage, _ b: LinearImage, _ region: (x: Range<Int>, y: Range<Int>)) -> SIMD3<Double> {
        var sums = SIMD3<Double>(), squares = SIMD3<Double>(), count = 0.0
        for y in region.y {
            for x in region.x {
                func channels(_ p: SIMD3<Float>) -> SIMD3<Double> {
                    let l = 0.2126 * Double(p.x) + 0.7152 * Double(p.y) + 0.0722 * Double(p.z)
                    return SIMD3(l, Double(p.z) - l, Double(p.x) - l)
                }
                let d = channels(a[x, y]) - channels(b[x, y])
                sums += d
                squares += d * d
                count += 1
            }
        }
        let mean = sums / count
        return ((squares / count - mean * mean) / 2).squareRoot()
    }

    @Test("on a striped grey card (texture 6× the noise) luma keeps its noise with its texture, chroma noise falls 3× further")
    func chromaMoreThanLuma() throws {
        func stripes(seed: UInt64) throws -> Frame {
            try NoisyFrames.raw(width: 128, height: 128, gain: 4, seed: seed) { x, _ in SIMD3(repeating: (x / 4).isMultiple(of: 2) ? 0.04 : 0.06) }
        }
        let (first, second) = (try stripes(seed: 3), try stripes(seed: 4))
        let before = Self.noise(try NoisyFrames.developed(first, .off), try NoisyFrames.developed(second, .off), Self.inside)
        let after = Self.noise(try NoisyFrames.developed(first, .spatial), try NoisyFrames.developed(second, .spatial), Self.inside)
        let factors = before / after
        #expect(factors.y > 3 * factors.x && factors.z > 3 * factors.x, "luma ÷\(factors.x), B − Y ÷\(factors.y), R − Y ÷\(factors.z)")
    }

    @Test("on a flat grey card chroma noise falls at least as far as luma noise, and the grey stays grey")
    func flatChroma() throws {
        let frame = try Self.greyCard(seed: 2)
        let before = NoisyFrames.statistics(try NoisyFrames.developed(frame, .off), Self.inside)
        let after = NoisyFrames.statistics(try NoisyFrames.developed(frame, .spatial), Self.inside)
        let luma = before.luma.deviation / after.luma.deviation
        let blue = before.blue.deviation / after.blue.deviation, red = before.red.deviation / after.red.deviation
        #expect(blue >= luma && red >= luma, "luma ÷\(luma), B − Y ÷\(blue), R − Y ÷\(red)")
        #expect(abs(after.blue.mean) < 0.02 * after.luma.mean && abs(after.red.mean) < 0.02 * after.luma.mean)
    }

    /// The columns where the mean profile of rows `rows` crosses 10% and 90% of the way from the
    /// left plateau to the right one, interpolated, and the two plateaus.
    static func rise(_ image: LinearImage, rows: Range<Int>) -> (width: Double, low: Double, high: Double) {
        let profile = (0..<image.width).map { x in NoisyFrames.statistics(image, (x..<(x + 1), rows)).luma.mean }
        let low = profile[8..<24].reduce(0, +) / 16, high = profile[(image.width - 24)..<(image.width - 8)].reduce(0, +) / 16
        func crossing(_ fraction: Double) -> Double {
            let level = low + fraction * (high - low)
            let x = profile.indices.dropFirst().first { profile[$0] >= level }!
            return Double(x - 1) + (level - profile[x - 1]) / (profile[x] - profile[x - 1])
        }
        return (crossing(0.9) - crossing(0.1), low, high)
    }

    @Test("a sharp edge of 10:1 keeps its 10–90% rise within a pixel and its contrast within 2%")
    func edgeKept() throws {
        let frame = try NoisyFrames.raw(width: 128, height: 64, gain: 4) { x, _ in SIMD3(repeating: x < 64 ? 0.02 : 0.2) }
        let before = Self.rise(try NoisyFrames.developed(frame, .off), rows: 8..<56)
        let after = Self.rise(try NoisyFrames.developed(frame, .spatial), rows: 8..<56)
        #expect(abs(after.width - before.width) <= 1, "rise \(before.width) → \(after.width) pixels")
        #expect(abs((after.high / after.low) / (before.high / before.low) - 1) < 0.02)
    }

    @Test("a noise-free frame through the denoiser keeps its clipped highlights white and its black black")
    func extremes() throws {
        let frame = try SyntheticFrames.raw(width: 64, height: 64) { x, _ in x < 32 ? .zero : SIMD3(repeating: 1) }
        let image = try NoisyFrames.developed(frame, .spatial)
        #expect(image[8, 32] == .zero)
        #expect(image[56, 32] == SIMD3(repeating: image.clipLevel))
    }
}
