import CameraCore
@testable import CameraFilters
import Foundation
import Testing

@Suite("Smoothing skin")
struct BeautyFilterTests {
    static let lightSkin = SIMD3<Double>(224, 172, 140)
    static let darkerSkin = SIMD3<Double>(160, 110, 80)

    /// A `width`×`height` frame of `colour(x)` plus Gaussian luma noise of σ `noise`, the same in
    /// every channel (texture, not colour noise), from a fixed seed.
    static func noisy(width: Int = 96, height: Int = 96, noise: Double = 8,
                      _ colour: (Int) -> SIMD3<Double>) throws -> PixelBuffer {
        var random = SplitMix64(seed: 22)
        return try TestFrames.bgra(width: width, height: height) { x, _ in
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
            let offset = noise * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
            let value = (colour(x) + offset).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)).rounded(.toNearestOrEven)
            return SIMD4(UInt8(value.x), UInt8(value.y), UInt8(value.z), 255)
        }
    }

    /// The BT.601 luma of pixel (x, y).
    static func luma(_ frame: PixelBuffer, _ x: Int, _ y: Int) -> Double {
        let pixel = SIMD3<Double>(Double(frame.rgba(x, y).x), Double(frame.rgba(x, y).y), Double(frame.rgba(x, y).z))
        return (pixel * SIMD3(0.299, 0.587, 0.114)).sum()
    }

    /// The variance of the luma over the pixels `columns`×`rows`.
    static func lumaVariance(_ frame: PixelBuffer, columns: Range<Int>, rows: Range<Int>) -> Double {
        let values = rows.flatMap { y in columns.map { x in luma(frame, x, y) } }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
    }

    /// The mean luma of column `x` over the middle rows.
    static func columnLuma(_ frame: PixelBuffer, _ x: Int) -> Double {
        (8..<(frame.height - 8)).reduce(0) { $0 + luma(frame, x, $1) } / Double(frame.height - 16)
    }

    @Test("strength 0 leaves the frame bit-exact")
    func zeroIsBitExact() throws {
        let frame = try Self.noisy { _ in Self.lightSkin }
        let original = frame.bytes(plane: 0)
        try BeautyFilter(strength: 0).apply(to: frame, at: Date())
        #expect(frame.bytes(plane: 0) == original)
    }

    /// Frame heights: 96 runs the guided filter on 2×2 blocks, 1080 on 4×4 (`GuidedFilterPlanes.scale`).
    static let heights = [96, 1080]

    @Test("strength 1 smooths a noisy flat skin patch", arguments: [0.5, 1.0], heights)
    func smoothsSkin(strength: Double, height: Int) throws {
        let frame = try Self.noisy(height: height) { _ in Self.lightSkin }
        let before = Self.lumaVariance(frame, columns: 8..<88, rows: 8..<88)
        try BeautyFilter(strength: strength).apply(to: frame, at: Date())
        let after = Self.lumaVariance(frame, columns: 8..<88, rows: 8..<88)
        print("beauty \(strength), \(height) high: skin luma variance \(before) → \(after) (\(after / before) of it)")
        #expect(after < before * (strength == 1 ? 0.25 : 0.6))
    }

    @Test("a sharp edge between two skin tones keeps its step while the noise either side is smoothed", arguments: heights)
    func keepsEdges(height: Int) throws {
        let frame = try Self.noisy(height: height) { x in x < 48 ? Self.lightSkin : Self.darkerSkin }
        let stepBefore = Self.columnLuma(frame, 47) - Self.columnLuma(frame, 48)
        let noiseBefore = Self.lumaVariance(frame, columns: 8..<40, rows: 8..<88)
        try BeautyFilter(strength: 1).apply(to: frame, at: Date())
        let stepAfter = Self.columnLuma(frame, 47) - Self.columnLuma(frame, 48)
        let noiseAfter = Self.lumaVariance(frame, columns: 8..<40, rows: 8..<88)
        print("beauty 1, \(height) high: edge step \(stepBefore) → \(stepAfter), noise variance beside it \(noiseBefore) → \(noiseAfter)")
        #expect(stepAfter > stepBefore * 0.85)
        #expect(noiseAfter < noiseBefore * 0.3)
    }

    @Test("colours far from skin are left exactly as they are", arguments: heights)
    func leavesOtherColours(height: Int) throws {
        let frame = try Self.noisy(height: height) { x in x < 48 ? SIMD3(80, 120, 200) : SIMD3(60, 140, 60) }
        let original = frame.bytes(plane: 0)
        try BeautyFilter(strength: 1).apply(to: frame, at: Date())
        #expect(frame.bytes(plane: 0) == original)
    }

    @Test("a strength outside 0…1 is a clear error", arguments: [1.5, -0.1, .nan, .infinity])
    func strengthOutOfRange(strength: Double) {
        #expect(throws: FilterError("a beauty strength of \(strength) is outside 0…1 — choose 0 (off) to 1 (strongest)")) {
            try BeautyFilter(strength: strength)
        }
    }

    @Test("on nv12 the luma of a noisy skin patch is smoothed and its chroma kept", arguments: [YCbCrRange.video, .full])
    func nv12(range: YCbCrRange) throws {
        let source = try Self.noisy { _ in Self.lightSkin }
        let frame = try PixelBuffer(format: .nv12(range), width: 96, height: 96)
        for y in 0..<96 {
            for x in 0..<96 {
                let pixel = source.rgba(x, y)
                let encoded = BT709.encode(red: pixel.x, green: pixel.y, blue: pixel.z, range: range)
                frame[plane: 0, x: x, y: y] = encoded.y
                if x.isMultiple(of: 2) && y.isMultiple(of: 2) {
                    frame[plane: 1, x: x, y: y / 2] = encoded.cb
                    frame[plane: 1, x: x + 1, y: y / 2] = encoded.cr
                }
            }
        }
        let chroma = frame.bytes(plane: 1)
        func variance() -> Double {
            let values = (8..<88).flatMap { y in (8..<88).map { x in Double(frame[plane: 0, x: x, y: y]) } }
            let mean = values.reduce(0, +) / Double(values.count)
            return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        }
        let before = variance()
        try BeautyFilter(strength: 1).apply(to: frame, at: Date())
        let after = variance()
        print("beauty 1 on nv12 \(range): luma variance \(before) → \(after)")
        #expect(after < before * 0.25)
        #expect(frame.bytes(plane: 1) == chroma)
    }

    @Test("a frame in another format is refused")
    func otherFormats() throws {
        let frame = try PixelBuffer(format: .gray8, width: 8, height: 8)
        #expect(throws: FilterError("the beauty filter cannot filter a gray8 frame — render the picture as bgra8 or nv12 before filtering it")) {
            try BeautyFilter(strength: 0.5).apply(to: frame, at: Date())
        }
    }
}
