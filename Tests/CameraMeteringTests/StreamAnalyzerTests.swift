import CameraCore
@testable import CameraMetering
import Testing

/// Across a stream's frames a lamp found at one exposure stays a lamp at a higher one, where its
/// glare has clipped into a blob too large to be one; it is judged afresh once it stops clipping or
/// another is found.
@Suite("Stream analyzer: light sources remembered")
struct StreamAnalyzerTests {
    static let analyzer = FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 4))
    /// The lamp's glare (it holds the clipped core): 64×32 pixels of the 128×96 frame's top half.
    static func inGlare(_ x: Int, _ y: Int) -> Bool { (32..<96).contains(x) && (8..<40).contains(y) }

    /// 128×96: a wall (`top`) over a floor (`bottom`), a lamp whose 16×16 core is at `core` and whose
    /// glare is at `glare`.
    static func frame(top: UInt8, bottom: UInt8, glare: UInt8, core: UInt8 = 255) throws -> PixelBuffer {
        try buffer(.gray8, width: 128, height: 96) { x, y in
            if (56..<72).contains(x) && (16..<32).contains(y) { return core }
            if inGlare(x, y) { return glare }
            return y < 48 ? top : bottom
        }
    }

    /// The lamp seen at a low exposure (its glare a light source), then a stop brighter (its glare
    /// clipped: 17% of the frame, too much for a lamp).
    static func low() throws -> PixelBuffer { try frame(top: 100, bottom: 70, glare: 200) }
    static func high() throws -> PixelBuffer { try frame(top: 137, bottom: 96, glare: 255) }

    @Test("A lamp whose glare clips at a higher exposure stays a light source, and out of the backlight")
    func lampStaysALampWhileClipped() throws {
        let low = try Self.analyzer.analyze(try Self.low()), high = try Self.analyzer.analyze(try Self.high())
        #expect(low.highlights.lightSourceCount == 1)
        #expect(high.highlights.lightSourceCount == 0, "alone, the brighter frame sees a clipped wall")
        // Unremembered, the clipped glare is a backlight: the cycle the memory ends.
        #expect(SceneFlags(statistics: high, metadata: nil).backlit)
        var stream = StreamAnalyzer(Self.analyzer)
        _ = try stream.analyze(try Self.low())
        let remembered = try stream.analyze(try Self.high())
        #expect(remembered.highlights.lightSourceCount == 1)
        #expect(abs(remembered.highlights.sunFraction - low.highlights.sunFraction) < 0.01)
        #expect(remembered.highlights.nonSunClippedFraction < 0.01, "the glare is the lamp's, not the budget's")
        #expect(!SceneFlags(statistics: remembered, metadata: nil).backlit)
    }

    @Test("A remembered lamp is forgotten where it stops clipping")
    func unclippedCellsAreJudgedAfresh() throws {
        var stream = StreamAnalyzer(Self.analyzer)
        _ = try stream.analyze(try Self.low())
        _ = try stream.analyze(try Self.high())
        // The lamp switched off: nothing clips where it was.
        let off = try stream.analyze(try Self.frame(top: 137, bottom: 96, glare: 137, core: 137))
        #expect(off.highlights.lightSourceCount == 0 && off.highlights.sunFraction == 0)
        #expect(try stream.analyze(try Self.high()).highlights.lightSourceCount == 0, "and stays forgotten")
    }

    @Test("A frame that finds a light source replaces the remembered ones")
    func foundSourcesReplaceTheMemory() throws {
        var stream = StreamAnalyzer(Self.analyzer)
        _ = try stream.analyze(try Self.low())
        // Panned: a small lamp at the left, and the old lamp's place now a clipped window.
        let kept = try stream.analyze(try buffer(.gray8, width: 128, height: 96) { x, y in
            if (4..<12).contains(x) && (16..<24).contains(y) { return 255 }
            return Self.inGlare(x, y) ? 255 : y < 48 ? 137 : 96
        })
        let high = try Self.analyzer.analyze(try Self.high())
        #expect(kept.highlights.lightSourceCount == 1)
        #expect(kept.highlights.sunFraction < high.highlights.nonSunClippedFraction / 4, "only the small lamp")
        #expect(kept.highlights.nonSunClippedFraction > 0.1, "the window counts")
    }
}
