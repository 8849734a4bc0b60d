import CameraCodecs
import CameraCore
@testable import CameraEvaluation
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

/// The picture's figures: output noise, the subject's depth below the highlights, the dusk level
/// change, and each set summed up against issue 35's acceptance.
@Suite struct PictureSummaryTests {
    /// A settled run of `algorithm` with its subject at `subjectEV`, TMQI `tmqi` (and `globalTmqi`
    /// through the global curve) and dusk change `duskEV`.
    func run(_ algorithm: String, subjectEV: Double, tmqi: Double?, globalTmqi: Double? = nil, duskEV: Double? = nil,
             below: Double? = nil, psnr: Double? = nil, scene: String = "s") -> ClosedLoopEvaluation.Result {
        let samples = (0..<10).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, renderGainEV: 1,
                                                                 subjectEV: subjectEV, clippedFraction: 0, crushedFraction: 0) }
        var result = ClosedLoopEvaluation.judge(samples, scene: scene, algorithm: algorithm)
        (result.tmqi, result.globalTmqi, result.duskEV, result.subjectBelowHighlightsEV, result.subjectPsnrDb) = (tmqi, globalTmqi, duskEV, below, psnr)
        return result
    }

    func section(_ list: String, _ results: [ClosedLoopEvaluation.Result]) -> AEEvalReport.Section {
        AEEvalReport.Section(scene: results[0].scene, list: list, why: "", subject: nil, intent: 0, meanOverMedian: 0, reference: nil,
                             results: results)
    }

    @Test("Each set is summed up apart: the band, far too bright, TMQI against the best OpenCV mapper, the local part and dusk")
    func lists() {
        let sections = [
            section("a.txt", [run("sun", subjectEV: 0, tmqi: 0.90, globalTmqi: 0.88, duskEV: -1.2),
                              run("opencv-reinhard", subjectEV: 1, tmqi: 0.85), run("opencv-drago", subjectEV: 1, tmqi: 0.91)]),
            section("a.txt", [run("sun", subjectEV: 1.4, tmqi: 0.80, globalTmqi: 0.795, duskEV: -0.5),
                              run("opencv-mantiuk", subjectEV: 0, tmqi: 0.79)]),
            section("b.txt", [run("naive", subjectEV: -0.5, tmqi: 0.7), run("sun", subjectEV: -0.9, tmqi: 0.7)]),
        ]
        let summaries = PictureSummary.lists(sections)
        #expect(summaries.map(\.list) == ["a.txt", "b.txt"])
        let a = summaries[0]
        #expect((a.views, a.withinBand, a.farTooBright) == (2, 1, 1))
        #expect((a.atOrAboveOpenCV, a.comparedWithOpenCV) == (1, 2), "0.90 is below Drago's 0.91; 0.80 is above Mantiuk's 0.79")
        #expect((a.localShows, a.comparedLocal) == (1, 2))
        #expect(abs((a.medianLocalGain ?? 0) - 0.0125) < 1e-9)
        #expect((a.duskDarker, a.duskViews) == (1, 2) && abs((a.meanDuskEV ?? 0) + 0.85) < 1e-9)
        #expect(a.line == "a.txt: 1 of 2 in the natural band, 1 more than 1 EV too bright; TMQI ≥ the best OpenCV mapper on 1 of 2; "
            + "--hdr on ≥ off + 0.01 on 1 of 2 (median +0.013); dusk ≥ 1 EV darker on 1 of 2 (mean -0.85 EV)")
        let b = summaries[1]
        #expect((b.views, b.withinBand, b.comparedWithOpenCV, b.comparedLocal, b.duskViews) == (1, 1, 0, 0, 0))
        #expect(b.line == "b.txt: 1 of 1 in the natural band, 0 more than 1 EV too bright; TMQI ≥ the best OpenCV mapper on 0 of 0; --hdr on ≥ off + 0.01 on 0 of 0")
    }

    @Test("The darkest subjects are listed darkest first with their output noise")
    func darkest() {
        let sections = [
            section("a", [run("sun", subjectEV: 0, tmqi: nil, below: 2, psnr: 40, scene: "two")]),
            section("a", [run("sun", subjectEV: 0.5, tmqi: nil, below: 5, psnr: 30.25, scene: "five")]),
            section("b", [run("sun", subjectEV: 0, tmqi: nil, below: nil, scene: "none")]),
        ]
        #expect(PictureSummary.darkestSubjects(sections, count: 1)
            == ["five: subject 5.0 EV below the highlights, output noise PSNR 30.2 dB, subject ΔEV +0.50 (too bright)"])
        #expect(PictureSummary.darkestSubjects(sections).count == 2)
    }

    @Test("Output noise: a picture against itself has no noise; one 8-bit step on every subject sample is 48.13 dB; no subject, no figure")
    func psnr() throws {
        let picture = try PixelBuffer(format: .bgra8, width: 4, height: 2)
        let brighter = try PixelBuffer(format: .bgra8, width: 4, height: 2)
        picture.withUnsafeMutableBytes(plane: 0) { bytes in for i in bytes.indices { bytes[i] = 100 } }
        brighter.withUnsafeMutableBytes(plane: 0) { bytes in for i in bytes.indices { bytes[i] = i % 8 < 4 ? 101 : 100 } }
        let mask: [UInt8] = [1, 0, 0, 0, 1, 0, 0, 0]
        let truth = SimulatedGroundTruth(size: PixelSize(width: 4, height: 2), subjectMask: mask, sunMask: [UInt8](repeating: 0, count: 8),
                                         objectMask: [UInt8](repeating: 0, count: 8), subjectIntent: 0)
        #expect(try #require(ClosedLoopEvaluation.subjectPSNR(picture, picture, truth: truth)) > 100)
        #expect(abs(try #require(ClosedLoopEvaluation.subjectPSNR(brighter, picture, truth: truth)) - 48.13) < 0.01)
        let none = SimulatedGroundTruth(size: truth.size, subjectMask: [UInt8](repeating: 0, count: 8), sunMask: truth.sunMask,
                                        objectMask: truth.objectMask, subjectIntent: 0)
        #expect(ClosedLoopEvaluation.subjectPSNR(brighter, picture, truth: none) == nil)
    }

    @Test("The subject's depth: a subject at 1 under a scene whose brightest 2% outside the sun are at 8 lies 3 EV below; the sun is left out")
    func subjectBelowHighlights() throws {
        var radiance = RadianceImage(width: 10, height: 10)
        var subject = [UInt8](repeating: 0, count: 100), sun = [UInt8](repeating: 0, count: 100)
        for i in 0..<100 {
            radiance[i % 10, i / 10] = SIMD3(repeating: i < 50 ? 1 : 8)
            if i < 50 { subject[i] = 1 }
        }
        radiance[9, 9] = SIMD3(repeating: 1e6)
        sun[99] = 1
        let truth = SimulatedGroundTruth(size: PixelSize(width: 10, height: 10), subjectMask: subject, sunMask: sun,
                                         objectMask: [UInt8](repeating: 0, count: 100), subjectIntent: 0)
        #expect(abs(try #require(ClosedLoopEvaluation.subjectBelowHighlights(radiance, truth: truth)) - 3) < 1e-5)
    }

    @Test("A view at dusk is its HDR spec with median 5 cd/m², replacing any median it gave")
    func duskScene() throws {
        var image = RadianceImage(width: 32, height: 18)
        for y in 0..<18 { for x in 0..<32 { image[x, y] = SIMD3(repeating: y < 9 ? 8 : 1) } }
        try withScratchDirectory { directory in
            let file = directory.appendingPathComponent("t.hdr")
            try RadianceHDREncoder().encode(image).write(to: file)
            let rect = NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5)
            let dusk = try EvaluatedScene.dusk(file.path + ",median=300", subject: rect, intent: 0)
            #expect(dusk.name == "hdr:t.hdr,median=5")
        }
    }
}
