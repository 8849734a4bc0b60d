import CameraCore
import Foundation
@testable import CameraISP
import Testing

@Suite("Tone mapping")
struct ToneMappingTests {
    @Test("the curve lifts the subject by ev, keeps the slope below it and puts white at white",
          arguments: [(0.01, 4.0), (0.18 / 8, 3.0), (0.002, 6.0), (0.05, 1.0)])
    func curve(subjectLevel: Double, ev: Double) {
        let curve = ToneCurve(RenderGain(subjectLevel: subjectLevel, ev: ev), clipLevel: 1)
        let subject = Float(log2(subjectLevel))
        #expect(abs(curve.output(subject) - (subject + Float(ev))) < 1e-5)
        #expect(abs(curve.output(subject - 3) - (subject - 3 + Float(ev))) < 1e-5)
        #expect(abs(curve.output(0)) < 1e-4)
        let levels = stride(from: subject - 4, through: 1, by: 0.05).map { curve.output($0) }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 }, "monotone")
    }

    @Test("a merged bracket's headroom: its white, headroom times the sensor's, lands on the output white; the subject still gets its lift",
          arguments: [(4.0, 4.0), (4.0, 0.0), (8.0, 2.0)])
    func headroom(headroom: Double, ev: Double) {
        let curve = ToneCurve(RenderGain(subjectLevel: 0.01, ev: ev), clipLevel: Float(headroom), headroom: Float(headroom))
        #expect(abs(curve.output(Float(log2(headroom)))) < 1e-4, "the merged white at \(curve.output(Float(log2(headroom)))) EV")
        #expect(abs(curve.output(Float(log2(0.01))) - (Float(log2(0.01)) + Float(ev))) < 1e-5)
        let levels = stride(from: Float(-10), through: Float(log2(headroom)), by: 0.05).map { curve.output($0) }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 } && levels.allSatisfy { $0 <= 1e-4 }, "monotone, under white")
    }

    @Test("detail over a compressed base keeps its whole contrast while the output has room under white, and the curve's slope at white")
    func detailUnderWhite() {
        let curve = ToneCurve(RenderGain(subjectLevel: 0.01, ev: 4), clipLevel: 1)
        /// The output's contrast (EV) of a pixel `detail` EV over its base at `base`, per EV of detail.
        func contrast(_ base: Float, _ detail: Float) -> Float {
            let gain = curve.log2Gain(level: SIMD8(repeating: base + detail), base: SIMD8(repeating: base))[0]
            return (base + detail + gain - curve.output(base)) / detail
        }
        let roomy: Float = -3, atWhite: Float = 0
        #expect(curve.output(roomy) < -ToneCurve.detailRange, "the base stands more than the detail range under white")
        #expect(abs(contrast(roomy, 0.2) - 1) < 1e-5, "whole where there is room")
        #expect(contrast(roomy, 0.2) > (curve.output(roomy + 0.01) - curve.output(roomy)) / 0.01 + 0.2, "more than the curve's slope")
        let slopeAtWhite = (curve.output(atWhite) - curve.output(atWhite - 0.01)) / 0.01
        #expect(abs(contrast(atWhite, 0.1) - slopeAtWhite) < 0.02, "at white, the curve's slope: \(contrast(atWhite, 0.1)) against \(slopeAtWhite)")
    }

    @Test("with no lift or a cut the curve is a plain gain", arguments: [0.0, -1.5])
    func plainGain(ev: Double) {
        let curve = ToneCurve(RenderGain(subjectLevel: 0.1, ev: ev), clipLevel: 1)
        for level: Float in [-8, -3, -0.5, 0, 1] {
            #expect(abs(curve.output(level) - (level + Float(ev))) < 1e-6)
        }
        #expect(ToneCurve(.none, clipLevel: 1).isIdentity)
    }

    /// A dark subject (linear 0.01) against sky (0.5): a 160×120 rectangle in a 1280×720 frame.
    private static func subjectAgainstSky() -> ImagePipeline {
        SyntheticFrames.pipeline(width: 1280, height: 720) { x, y in
            (560..<720).contains(x) && (300..<420).contains(y) ? SIMD3(repeating: 0.01) : SIMD3(repeating: 0.5)
        }
    }

    @Test("a dark subject against bright sky leaves no halo: the sky by the outline is the sky further off")
    func noHalo() throws {
        var pipeline = ToneMappingTests.subjectAgainstSky()
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.01, ev: 4))
        // From each side's middle, outwards: the sky 1…16 px from the outline against the sky 64 px off.
        let sides: [(edge: (Int, Int), step: (Int, Int))] = [((559, 360), (-1, 0)), ((720, 360), (1, 0)), ((640, 299), (0, -1)), ((640, 420), (0, 1))]
        for side in sides {
            let far = output.linearLuminance(side.edge.0 + 63 * side.step.0, side.edge.1 + 63 * side.step.1)
            for distance in 0..<16 {
                let near = output.linearLuminance(side.edge.0 + distance * side.step.0, side.edge.1 + distance * side.step.1)
                #expect(abs(log2(near / far)) <= 0.15, "\(distance + 1) px beyond \(side.edge): \(near) against \(far)")
            }
        }
    }

    @Test("both tone mappings put the subject at its target", arguments: ToneMapping.allCases)
    func subjectAtTarget(toneMapping: ToneMapping) throws {
        var pipeline = ToneMappingTests.subjectAgainstSky()
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.01, ev: 4), toneMapping)
        let target = SyntheticFrames.srgb8(0.16)
        #expect(abs(output.rgb(640, 360).y - target) <= 2, "subject \(output.rgb(640, 360)) against \(target)")
        // The sky is compressed below white, not clipped.
        #expect(output.rgb(100, 100).y < 255)
    }

    @Test("large regions keep their order", arguments: ToneMapping.allCases)
    func regionOrder(toneMapping: ToneMapping) throws {
        let levels: [Float] = [0.001, 0.004, 0.01, 0.03, 0.1, 0.3, 0.7, 1]
        var pipeline = SyntheticFrames.pipeline(width: 1024, height: 256) { x, _ in SIMD3(repeating: levels[x / 128]) }
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.01, ev: 4), toneMapping)
        let rendered = levels.indices.map { output.linearLuminance($0 * 128 + 64, 128) }
        #expect(zip(rendered, rendered.dropFirst()).allSatisfy { $0 < $1 }, "\(rendered)")
    }

    @Test("RenderGain.none renders the frame as developed", arguments: ToneMapping.allCases)
    func noGain(toneMapping: ToneMapping) throws {
        var pipeline = SyntheticFrames.pipeline(width: 64, height: 64) { x, _ in SIMD3(repeating: x < 32 ? 0.02 : 0.6) }
        let output = try SyntheticFrames.render(&pipeline, .none, toneMapping)
        #expect(output.rgb(8, 32).y == SyntheticFrames.srgb8(0.02))
        #expect(output.rgb(56, 32).y == SyntheticFrames.srgb8(0.6))
    }
}
