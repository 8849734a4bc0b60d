import CameraCore
@testable import CameraEvaluation
import CameraTestSupport
import Foundation
import Testing

/// MEF-SSIM (Ma, Zeng and Wang 2015) on a synthetic bracket: its fixed points, its ordering of a good
/// fusion above single exposures, and its agreement with an independent numpy implementation
/// (Tests/Python/mef_ssim_peer.py).
@Suite struct MEFSSIMTests {
    private static let width = 192, height = 160

    private static func bracket() throws -> [PixelBuffer] {
        try SyntheticBracket.frames(width: width, height: height)
    }

    @Test("A fused image equal to identical sources scores 1 within 1e-6, at every scale", arguments: [2, 3, 5])
    func identicalSourcesScoreOne(count: Int) throws {
        let plane = MEFSSIM.luminance(of: try SyntheticBracket.frame(width: Self.width, height: Self.height, ev: 0))
        let score = try MEFSSIM.score(sources: Array(repeating: plane, count: count), fused: plane)
        #expect(abs(score.quality - 1) < 1e-6, "\(score)")
        #expect(score.scales.allSatisfy { abs($0 - 1) < 1e-6 }, "\(score)")
    }

    @Test("A well-exposedness blend of the bracket scores higher than any one of its exposures taken as the fusion")
    func blendBeatsEachExposure() throws {
        let bracket = try Self.bracket()
        let blend = try MEFSSIM.score(sources: bracket, fused: try SyntheticBracket.wellExposedBlend(bracket))
        for (ev, frame) in zip([-2, 0, 2], bracket) {
            let single = try MEFSSIM.score(sources: bracket, fused: frame)
            #expect(blend.quality > single.quality + 0.02, "\(ev) EV: \(single) against the blend's \(blend)")
        }
    }

    @Test("Three scales, weighted 0.0448 : 0.2856 : 0.3001 normalised; the smallest side keeps an 11×11 patch at the third",
          arguments: [(44, 44, true), (44, 43, false), (43, 60, false)])
    func scales(width: Int, height: Int, accepted: Bool) throws {
        let expected = [0.0711, 0.4530, 0.4760]
        #expect(zip(MEFSSIM.scaleWeights, expected).allSatisfy { abs($0 - $1) < 1e-4 } && MEFSSIM.minimumSide == 44,
                "\(MEFSSIM.scaleWeights)")
        let plane = LuminancePlane(width: width, height: height, values: (0..<(width * height)).map { Double($0 % 251) })
        let error = evaluationError { try MEFSSIM.score(sources: [plane, plane], fused: plane) }
        if accepted {
            #expect(error == nil)
        } else {
            #expect(error == .invalidInput("MEF-SSIM: a \(width)x\(height) image is too small for its three scales — "
                + "score images of at least 44x44"))
        }
    }

    /// The fused images the numpy peer is run on: the blend, the blend with ±12 levels of noise, the
    /// −2 EV frame, and the blend against only the two outer exposures.
    private static func crossCheckCase(_ name: String) throws -> (sources: [LuminancePlane], fused: LuminancePlane) {
        let bracket = try Self.bracket()
        let blend = MEFSSIM.luminance(of: try SyntheticBracket.wellExposedBlend(bracket))
        let sources = bracket.map(MEFSSIM.luminance(of:))
        switch name {
        case "noisy blend":
            var random = SplitMix64(seed: 3)
            let noisy = blend.values.map { min(max($0 + Double(Int.random(in: -12...12, using: &random)), 0), 255) }
            return (sources, LuminancePlane(width: Self.width, height: Self.height, values: noisy))
        case "-2 EV": return (sources, sources[0])
        case "two sources": return ([sources[0], sources[2]], blend)
        default: return (sources, blend)
        }
    }

    @Test("The index agrees with a patch-by-patch numpy implementation within 1e-3, overall and at each scale",
          arguments: ["blend", "noisy blend", "-2 EV", "two sources"])
    func agreesWithNumpy(name: String) async throws {
        let (sources, fused) = try Self.crossCheckCase(name)
        let score = try MEFSSIM.score(sources: sources, fused: fused)
        let peer = try await NumpyMEFSSIM.score(sources: sources, fused: fused)
        #expect(abs(score.quality - peer.quality) < 1e-3, "\(name): \(score) against numpy \(peer)")
        #expect(zip(score.scales, peer.scales).allSatisfy { abs($0 - $1) < 1e-3 }, "\(name): \(score) against numpy \(peer)")
    }

    @Test("One source, a source of another size and values outside 0…255 are invalid inputs naming the value")
    func invalidInputs() throws {
        let plane = MEFSSIM.luminance(of: try SyntheticBracket.frame(width: Self.width, height: Self.height, ev: 0))
        let smaller = LuminancePlane(width: 64, height: 80, values: Array(plane.values[0..<(64 * 80)]))
        var linear = plane
        linear.values[7] = 300
        let cases: [([LuminancePlane], LuminancePlane, String)] = [
            ([plane], plane, "MEF-SSIM: 1 source image(s) — score a fusion against the two or more exposures it was made from"),
            ([plane, smaller], plane, "MEF-SSIM: source 2 is 64x80 but the fused image 192x160 — give the sources and the fused image at one size"),
            ([plane, plane], linear, "MEF-SSIM: the fused image has the value 300.0, outside 0…255 — give luminance in 8-bit code values"),
        ]
        for (sources, fused, message) in cases {
            #expect(evaluationError { try MEFSSIM.score(sources: sources, fused: fused) } == .invalidInput(message))
        }
    }
}

/// Tests/Python/mef_ssim_peer.py run by Debian's python3 with python3-numpy.
enum NumpyMEFSSIM {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Python/mef_ssim_peer.py").path

    /// The peer's index and scales for `fused` against `sources`.
    static func score(sources: [LuminancePlane], fused: LuminancePlane) async throws -> MEFSSIM.Score {
        try await withScratchDirectory { folder in
            let files = try ([fused] + sources).enumerated().map { index, plane in
                let file = folder.appendingPathComponent("plane-\(index).f64")
                try plane.values.withUnsafeBytes { Data($0) }.write(to: file)
                return file.path
            }
            let (status, output, errors) = try await runTool("/usr/bin/python3", [script, "\(fused.width)", "\(fused.height)"] + files)
            guard status == 0, let answer = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
                  let quality = answer["quality"] as? Double, let scales = answer["scales"] as? [Double] else {
                throw Failure(description: "the numpy MEF-SSIM peer failed (status \(status)): \(errors) — run make deps (installs python3-numpy)")
            }
            return MEFSSIM.Score(quality: quality, scales: scales)
        }
    }
}
