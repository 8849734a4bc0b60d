import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

@Suite struct OpticsTests {
    /// A 23×17 image of values spanning 10⁻³…10⁶ (shadows beside a sun), deterministic.
    private static func image() -> RadianceImage {
        var rng = SplitMix64(seed: 7)
        let samples = (0..<(23 * 17 * 3)).map { _ in Float(pow(10, Double(rng.next() % 9_000) / 1_000 - 3)) }
        return RadianceImage(width: 23, height: 17, samples: samples)
    }

    /// The mean of the (2r + 1)² box around (x, y) with the edge pixels repeated outside.
    private static func boxMean(_ image: RadianceImage, x: Int, y: Int, radius: Int, channel: Int) -> Double {
        var sum = 0.0
        for dy in -radius...radius {
            for dx in -radius...radius {
                let sx = min(max(x + dx, 0), image.width - 1), sy = min(max(y + dy, 0), image.height - 1)
                sum += Double(image.samples[(sy * image.width + sx) * 3 + channel])
            }
        }
        return sum / Double((2 * radius + 1) * (2 * radius + 1))
    }

    @Test("Each pixel is the clamped box mean of its own radius, radii 0 to wider than the image")
    func defocusIsTheBoxMeanOfEachPixelsRadius() {
        let image = Self.image()
        // Float's rounding, and the table's: 10⁻¹⁶ of sums as large as the whole image's.
        let floor = 1e-12 * Double(image.samples.max()!)
        let levels: [UInt8] = [0, 1, 2, 3, 5, 8, 13, 21, 34]
        let radii = (0..<(image.width * image.height)).map { levels[($0 * 7) % levels.count] }
        let blurred = Optics.defocused(image, radii: radii, largest: 34)
        for y in 0..<image.height {
            for x in 0..<image.width {
                for channel in 0..<3 {
                    let i = (y * image.width + x) * 3 + channel, radius = Int(radii[y * image.width + x])
                    let expected = Self.boxMean(image, x: x, y: y, radius: radius, channel: channel)
                    #expect(abs(Double(blurred.samples[i]) - expected) <= 1e-6 * expected + floor, "pixel \(x), \(y) radius \(radius)")
                }
            }
        }
    }

    @Test("Radii are the nearest blur level, the smaller on a tie")
    func blurRadiiAreTheNearestLevel() {
        // At 1920 wide a dioptre of defocus is 4 px: lens at infinity, depths of 1/d metres.
        let dioptres: [Float] = [0.1, 0.3, 0.5, 0.625, 1, 1.5, 2.6, 4, 5.6, 10]
        let radii = Optics.blurRadii(dioptres.map { 1 / $0 }, lensPosition: 1, width: 1920)
        #expect(radii == [0, 1, 2, 2, 3, 5, 8, 13, 21, 34])
    }

    @Test(arguments: [SIMD3<Float>(1, 0.5, 0.25), SIMD3(3.0e5, 2.9e5, 1), SIMD3(0.001, 0.002, 0.0005), SIMD3(255.9, 0, 128)])
    func packedRadianceKeepsEachChannelWithinHalfAStepOfTheBrightest(rgb: SIMD3<Float>) {
        let image = RadianceImage(width: 1, height: 1, samples: [rgb.x, rgb.y, rgb.z])
        let packed = PackedRadiance(image).pixels[0]
        let unit = PackedRadiance.unitScale(SIMD8(repeating: packed))[0]
        for channel in 0..<3 {
            let decoded = PackedRadiance.mantissa(SIMD8(repeating: packed), channel: channel)[0] * unit
            #expect(abs(decoded - rgb[channel]) <= 0.5 * rgb.max() / 128, "channel \(channel)")
        }
    }
}
