import CameraCore
import Testing

@Suite("RadianceImage")
struct RadianceImageTests {
    @Test("sanitize replaces NaN and negatives with 0 and infinities with the ceiling, and counts them")
    func sanitizeReplacesBadSamples() {
        var image = RadianceImage(width: 3, height: 1, samples: [
            1, .nan, -2,
            .infinity, -.infinity, 5,
            -.nan, 0.5, -Float.leastNonzeroMagnitude,
        ])
        let replaced = image.sanitize()
        #expect(replaced == 6)
        #expect(image.samples == [1, 0, 0, 1e9, 0, 5, 0, 0.5, 0])
        #expect(image.samples.allSatisfy { $0.isFinite && $0 >= 0 })
    }

    @Test("sanitize uses the given ceiling for infinities")
    func customCeiling() {
        var image = RadianceImage(width: 1, height: 1, samples: [.infinity, 3, .nan])
        #expect(image.sanitize(ceiling: 100) == 2)
        #expect(image.samples == [100, 3, 0])
    }

    @Test("sanitize also clamps finite values above the ceiling, and counts them")
    func sanitizeClampsAboveCeiling() {
        // RadianceHDREncoder relies on this (sanitize(ceiling: 1e38) keeps values RGBE can hold).
        var image = RadianceImage(width: 2, height: 1, samples: [150, 100, 99.5, .greatestFiniteMagnitude, 0, 100.001])
        #expect(image.sanitize(ceiling: 100) == 3)
        #expect(image.samples == [100, 100, 99.5, 100, 0, 100])
    }

    @Test("The default ceiling is 1e9")
    func defaultCeiling() {
        var image = RadianceImage(width: 1, height: 1, samples: [1e9, 1.0000001e9, 5e8])
        #expect(image.sanitize() == 1)
        #expect(image.samples == [1e9, 1e9, 5e8])
    }

    @Test("sanitize leaves a clean image alone and is idempotent")
    func sanitizeIsIdempotent() {
        let clean: [Float] = [0, 0.25, 1, 100, 2e4, 7]
        var image = RadianceImage(width: 2, height: 1, samples: clean)
        #expect(image.sanitize() == 0)
        #expect(image.samples == clean)

        var dirty = RadianceImage(width: 1, height: 1, samples: [.nan, -1, .infinity])
        #expect(dirty.sanitize() == 3)
        let once = dirty.samples
        #expect(dirty.sanitize() == 0)
        #expect(dirty.samples == once)
    }

    @Test("A new image is black and has the requested size")
    func blackImage() {
        let image = RadianceImage(width: 4, height: 3)
        #expect(image.samples.count == 36)
        #expect(image.samples.allSatisfy { $0 == 0 })
        #expect(image.size == PixelSize(width: 4, height: 3))
    }

    @Test("The pixel subscript addresses interleaved RGB in row-major order")
    func pixelSubscript() {
        var image = RadianceImage(width: 3, height: 2)
        image[2, 1] = SIMD3(1, 2, 3)
        image[0, 1] = SIMD3(4, 5, 6)
        #expect(image[2, 1] == SIMD3(1, 2, 3))
        #expect(Array(image.samples[15..<18]) == [1, 2, 3])   // (1 × 3 + 2) × 3
        #expect(Array(image.samples[9..<12]) == [4, 5, 6])
        #expect(image[1, 1] == SIMD3(0, 0, 0))
    }

    @Test("luminance uses the Rec. 709 weights", arguments: [
        (SIMD3(1, 0, 0), 0.2126),
        (SIMD3(0, 1, 0), 0.7152),
        (SIMD3(0, 0, 1), 0.0722),
        (SIMD3(2, 2, 2), 2),
        (SIMD3(100, 50, 10), 57.742),   // 21.26 + 35.76 + 0.722
    ] as [(SIMD3<Float>, Float)])
    func luminance(rgb: SIMD3<Float>, expected: Float) {
        var image = RadianceImage(width: 1, height: 1)
        image[0, 0] = rgb
        #expect(abs(image.luminance(x: 0, y: 0) - expected) <= 1e-5 * max(1, expected))
    }
}
