import CameraCore
@testable import CameraEvaluation
import Foundation
import Testing

/// TMQI (Yeganeh and Wang 2013): the reference code's numbers on synthetic pairs, and the
/// properties the paper gives its two parts.
@Suite struct TMQITests {
    /// A grey HDR image whose luminance at (x, y) is `luminance(x, y)`.
    private static func hdr(width: Int, height: Int, _ luminance: (Int, Int) -> Double) -> RadianceImage {
        var image = RadianceImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = Float(luminance(x, y))
                image[x, y] = SIMD3(value, value, value)
            }
        }
        return image
    }

    /// A bgra8 rendering of `hdr`, each channel `curve(radiance)` rounded half up and clamped to 0…255.
    private static func render(_ hdr: RadianceImage, _ curve: (Double) -> Double) throws -> PixelBuffer {
        try bgra8(width: hdr.width, height: hdr.height) { x, y in
            let rgb = hdr[x, y]
            return (curve(Double(rgb.x)), curve(Double(rgb.y)), curve(Double(rgb.z)))
        }
    }

    /// A bgra8 buffer whose R, G, B at (x, y) are `rgb(x, y)`, rounded half up and clamped to 0…255.
    private static func bgra8(width: Int, height: Int,
                              _ rgb: (Int, Int) -> (Double, Double, Double)) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        func byte(_ value: Double) -> UInt8 { UInt8(min(max((value + 0.5).rounded(.down), 0), 255)) }
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = rgb(x, y)
                buffer[plane: 0, x: 4 * x, y: y] = byte(blue)
                buffer[plane: 0, x: 4 * x + 1, y: y] = byte(green)
                buffer[plane: 0, x: 4 * x + 2, y: y] = byte(red)
                buffer[plane: 0, x: 4 * x + 3, y: y] = 255
            }
        }
        return buffer
    }

    /// A 192×168 scene spanning three decades left to right, textured everywhere, in colour
    /// (R 1.2, G 1, B 0.7 times the luminance-like value).
    private static let threeDecades: RadianceImage = {
        let width = 192, height = 168
        var image = RadianceImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let base = pow(10, 3 * Double(x) / Double(width - 1))
                let texture = 1 + 0.4 * sin(2 * Double.pi * Double(x) / 7) * cos(2 * Double.pi * Double(y) / 9)
                let value = base * texture * (0.6 + 0.4 * Double(y) / Double(height - 1))
                image[x, y] = SIMD3(Float(1.2 * value), Float(value), Float(0.7 * value))
            }
        }
        return image
    }()

    /// The three curves the scene is rendered with: log (all three decades in 0…255), clipped
    /// (gamma 2.2 with the top 95% of the range at white) and crushed (gamma 2.2 with the bottom
    /// 10% of the peak at black).
    private static func curve(_ name: String, peak: Double, floor: Double) -> (Double) -> Double {
        switch name {
        case "log": { 255 * (log10($0) - log10(floor)) / (log10(peak) - log10(floor)) }
        case "clipped": { 255 * pow(min(1, $0 / (0.05 * peak)), 1 / 2.2) }
        default: { 255 * pow(max(0, $0 / peak - 0.1) / 0.9, 1 / 2.2) }
        }
    }

    private static func threeDecadesScore(_ name: String) throws -> TMQI.Score {
        let samples = threeDecades.samples.map(Double.init)
        let ldr = try render(threeDecades, curve(name, peak: samples.max()!, floor: samples.min()!))
        return try TMQI.score(hdr: threeDecades, ldr: ldr)
    }

    // The reference values: TMQI.m transcribed line by line into numpy and scipy (filter2 'valid'
    // as scipy.signal.correlate2d, imfilter 'symmetric' as numpy.pad, blkproc with its zero padding,
    // normcdf, normpdf and betapdf from scipy.stats) and run once on this scene and these curves.
    @Test("On a textured three-decade scene the score matches the reference code's within 0.01",
          arguments: [("log", 0.922720, 0.958043, 0.560644), ("clipped", 0.833414, 0.798358, 0.303236)])
    func matchesReference(curve: String, quality: Double, fidelity: Double, naturalness: Double) throws {
        let score = try Self.threeDecadesScore(curve)
        #expect(abs(score.quality - quality) < 0.01, "\(score)")
        #expect(abs(score.structuralFidelity - fidelity) < 0.01, "\(score)")
        #expect(abs(score.naturalness - naturalness) < 0.01, "\(score)")
    }

    @Test("A curve that keeps all three decades scores higher than one that clips or crushes them")
    func goodCurveBeatsClippedAndCrushed() throws {
        let log = try Self.threeDecadesScore("log")
        let clipped = try Self.threeDecadesScore("clipped"), crushed = try Self.threeDecadesScore("crushed")
        #expect(log.quality > clipped.quality + 0.05, "\(log) against \(clipped)")
        #expect(clipped.quality > crushed.quality + 0.1, "\(clipped) against \(crushed)")
        #expect(crushed.structuralFidelity < 0.5, "\(crushed)")
    }

    /// A 192×176 scene within 3:1, its texture white noise so that blur removes structure.
    private static let lowRange: RadianceImage = {
        var random = SplitMix64(seed: 7)
        let width = 192
        return hdr(width: width, height: 176) { x, _ in
            50 * (1 + 0.3 * Double.random(in: -1...1, using: &random)) * (0.8 + 0.4 * Double(x) / Double(width))
        }
    }()

    /// `lowRange` rendered gamma 2.2 with its peak at 230.
    private static func wellExposed() throws -> PixelBuffer {
        let peak = Double(lowRange.samples.max()!)
        return try render(lowRange) { 230 * pow($0 / peak, 1 / 2.2) }
    }

    @Test("A monotone, unclipped rendering of a low-range scene keeps its structure: S above 0.95")
    func monotoneRenderingKeepsStructure() throws {
        let score = try TMQI.score(hdr: Self.lowRange, ldr: try Self.wellExposed())
        #expect(score.structuralFidelity > 0.95, "\(score)")
    }

    @Test("Blurring the rendering or adding noise to it lowers S by more than 0.1")
    func blurAndNoiseLowerFidelity() throws {
        let clean = try Self.wellExposed()
        let width = clean.width, height = clean.height
        func value(_ x: Int, _ y: Int) -> Double {
            Double(clean[plane: 0, x: 4 * min(max(x, 0), width - 1), y: min(max(y, 0), height - 1)])
        }
        let blurred = try Self.bgra8(width: width, height: height) { x, y in
            var sum = 0.0
            for dy in -1...1 { for dx in -1...1 { sum += value(x + dx, y + dy) } }
            return (sum / 9, sum / 9, sum / 9)
        }
        var random = SplitMix64(seed: 11)
        let noisy = try Self.bgra8(width: width, height: height) { x, y in
            let noisy = value(x, y) + Double(Int.random(in: -20...20, using: &random))
            return (noisy, noisy, noisy)
        }
        let cleanFidelity = try TMQI.score(hdr: Self.lowRange, ldr: clean).structuralFidelity
        for rendering in [blurred, noisy] {
            let score = try TMQI.score(hdr: Self.lowRange, ldr: rendering)
            #expect(score.structuralFidelity < cleanFidelity - 0.1, "\(score) against S \(cleanFidelity)")
        }
    }

    @Test("A flat bright region rendered flat keeps S near 1, whatever its level (no E[x²] − μ² rounding noise)",
          arguments: [1000.0, 1024.0])
    func flatRegionKeepsStructure(level: Double) throws {
        let hdr = Self.hdr(width: 192, height: 176) { x, y in
            if x == 0 && y == 0 { return 0 }
            return x < 96 ? 1 + 0.3 * sin(2 * Double.pi * Double(x) / 13) * sin(2 * Double.pi * Double(y) / 11) : level
        }
        let ldr = try Self.render(hdr) { $0 >= level ? 240 : 100 * $0 }
        let score = try TMQI.score(hdr: hdr, ldr: ldr)
        #expect(score.structuralFidelity > 0.98, "\(score)")
    }

    /// A 176×176 luminance (16 blocks of 11 a side): `mean` ± `swing` in a pixel checkerboard.
    private static func checkerboard(mean: Double, swing: Double) -> LuminancePlane {
        let side = 176
        return LuminancePlane(width: side, height: side, values: (0..<(side * side)).map { i in
            (i % side + i / side).isMultiple(of: 2) ? mean + swing : mean - swing
        })
    }

    @Test("N is near 1 for a mid-grey mean with natural contrast (block deviation 17, the Beta's mode × 64.29)")
    func naturalnessPeaksAtMidGrey() {
        #expect(TMQI.naturalness(of: Self.checkerboard(mean: 116, swing: 17)) > 0.99)
    }

    @Test("N is low for a nearly black, nearly white, flat or harsh rendering",
          arguments: [(8.0, 6.0), (247.0, 6.0), (116.0, 0.0), (116.0, 60.0)])
    func naturalnessLowAwayFromThePeak(mean: Double, swing: Double) {
        #expect(TMQI.naturalness(of: Self.checkerboard(mean: mean, swing: swing)) < 0.01)
    }

    @Test("A partial block counts by its real area, its deviation taken with the zero padding (blkproc)")
    func partialBlocksAreZeroPadded() {
        // 12×11: one full block of 100s (deviation 0) and one 1×11 column of 100s padded with 110 zeros.
        let plane = LuminancePlane(width: 12, height: 11, values: [Double](repeating: 100, count: 132))
        let mean = 1100.0 / 121
        let padded = ((11 * (100 - mean) * (100 - mean) + 110 * mean * mean) / 120).squareRoot()
        #expect(abs(TMQI.meanBlockDeviation(plane) - padded * 11 / 132) < 1e-9)
    }

    @Test("The visibility thresholds of the five scales follow the CSF: 1.324, 0.932, 1.128, 1.732, 2.894 levels")
    func visibilityThresholds() {
        let thresholds = [16.0, 8, 4, 2, 1].map { TMQI.visibilityThreshold(frequency: $0) }
        for (threshold, expected) in zip(thresholds, [1.324, 0.932, 1.128, 1.732, 2.894]) {
            #expect(abs(threshold - expected) < 0.001, "\(thresholds)")
        }
    }

    @Test("Mismatched sizes, an image too small for five scales and a uniform HDR image are invalid inputs")
    func invalidInputs() throws {
        let flat = Self.hdr(width: 192, height: 176) { _, _ in 5 }
        let grey = try Self.render(flat) { _ in 128 }
        let small = Self.hdr(width: 160, height: 176) { x, _ in Double(x) }
        let cases: [(RadianceImage, PixelBuffer, String)] = [
            (Self.lowRange, try PixelBuffer(format: .bgra8, width: 191, height: 176),
             "TMQI: the rendering is 191x176 but the HDR image 192x176 — score a rendering at the HDR image's size"),
            (small, try Self.render(small) { $0 },
             "TMQI: a 160x176 image is too small for its five scales — score images of at least 161x161"),
            (flat, grey, "TMQI: the HDR image has one luminance throughout, so it has no structure to keep — "
                + "score a rendering of an image with some contrast"),
        ]
        for (hdr, ldr, message) in cases {
            #expect(evaluationError { try TMQI.score(hdr: hdr, ldr: ldr) } == .invalidInput(message))
        }
    }
}
