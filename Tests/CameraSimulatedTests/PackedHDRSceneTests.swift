import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// An HDR scene kept as RGBE words renders what the same image as floats renders.
@Suite struct PackedHDRSceneTests {
    /// A 2:1 panorama with a gradient, a bright spot and one pixel beyond the sanitising ceiling,
    /// as RGBE words and as the floats they stand for (clamped as `sanitize()` clamps them).
    static func panorama() -> (words: [UInt32], floats: RadianceImage) {
        let (width, height) = (256, 128)
        var words = [UInt32](), floats = RadianceImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let exponent: UInt32 = x == 7 && y == 9 ? 200 : (x / 16 == 3 ? 150 : 128 + UInt32(y % 5))
                let word = UInt32(x) | UInt32(255 - x) << 8 | UInt32((x + y) & 255) << 16 | exponent << 24
                words.append(word)
                let unit = Float(sign: .plus, exponent: Int(exponent) - 136, significand: 1)
                floats[x, y] = SIMD3(Float(x), Float(255 - x), Float((x + y) & 255)) * unit
            }
        }
        floats.sanitize()
        return (words, floats)
    }

    @Test("packed and float panoramas give the same view, scaled to the same median, with and without a pan",
          arguments: [SimulatedScene.ViewDirection(yaw: 30, pitch: 10, fov: 70), SimulatedScene.ViewDirection(fov: 60, pan: 40)])
    func sameView(view: SimulatedScene.ViewDirection) {
        let (words, floats) = Self.panorama()
        let packed = SimulatedScene.hdrImage(packed: words, width: 256, height: 128, named: "p.hdr", view: view, medianLuminance: 500)
        let unpacked = SimulatedScene.hdrImage(floats, named: "p.hdr", view: view, medianLuminance: 500)
        #expect(packed.name == unpacked.name)
        let size = PixelSize(width: 64, height: 48)
        let (a, b) = (packed.render(viewSize: size).radiance, unpacked.render(viewSize: size).radiance)
        #expect(a.width == b.width && a.height == b.height)
        let worst = zip(a.samples, b.samples).map { abs($0 - $1) / max(abs($1), 1e-3) }.max() ?? 1
        #expect(worst < 1e-4, "largest relative difference \(worst)")
    }

    @Test("a word beyond the ceiling reads as the ceiling times the scale, black as zero")
    func ceilingAndBlack() {
        // E = 160: a mantissa unit is 2^24, so 255 units are beyond 1e9 and one unit is not.
        var image = PackedRadianceImage(width: 2, height: 1, pixels: [255 | 255 << 8 | 1 << 16 | 160 << 24, 0])
        image.scale = 2
        #expect(image[0, 0] == SIMD3(2e9, 2e9, 33_554_432))
        #expect(image[1, 0] == .zero)
    }
}
