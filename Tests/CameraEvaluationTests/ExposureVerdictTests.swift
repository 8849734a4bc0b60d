@testable import CameraEvaluation
import CameraExposure
import Testing

/// The verdict on a closed-loop run's output: in the natural band, too bright, too dark, or clipped.
@Suite struct ExposureVerdictTests {
    @Test("Each run is judged by its output subject ΔEV against the natural band (−1 … +⅓ EV) and its clipping",
          arguments: [
              // subject ΔEV, clipped, verdict
              (0.2, 0.01, ExposureVerdict.withinBand),
              (1.0 / 3, 0.02, .withinBand),
              (-1.0, 0.0, .withinBand),
              (0.34, 0.0, .tooBright),
              (1.5, 0.0, .tooBright),
              (-1.01, 0.0, .tooDark),
              (-0.5, 0.03, .clipped),
          ] as [(Double, Double, ExposureVerdict)])
    func verdict(subjectEV: Double, clipped: Double, expected: ExposureVerdict) {
        #expect(ExposureVerdict(subjectEV: subjectEV, clippedFraction: clipped) == expected)
    }

    @Test("Only the natural band with no more than 2% clipped meets the bound")
    func meetsBound() {
        #expect(ExposureVerdict.allCases.filter(\.meetsBound) == [.withinBand])
    }

    @Test("The summary counts each verdict, the runs far too bright, the typical error and the runs at the camera's limit")
    func summary() {
        func run(_ subjectEV: Double, clipped: Double, atLimit: Bool = false, algorithm: String = "sun") -> ClosedLoopEvaluation.Result {
            let samples = (0..<10).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, renderGainEV: 2,
                                                                     subjectEV: subjectEV, clippedFraction: clipped, crushedFraction: 0) }
            return ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: algorithm, atDeviceLimit: atLimit)
        }
        let runs = [run(0.1, clipped: 0), run(-0.9, clipped: 0), run(0.5, clipped: 0), run(1.6, clipped: 0.5, atLimit: true),
                    run(-1.5, clipped: 0), run(-0.5, clipped: 0.4)]
        #expect(runs.map(\.verdict) == [.withinBand, .withinBand, .tooBright, .tooBright, .tooDark, .clipped])
        #expect(ExposureVerdict.summary(of: runs) == "2 of 6 in the natural band; 2 too bright (1 by more than 1 EV), 1 too dark, "
            + "1 clipping over 2%; median subject ΔEV -0.20; 1 at the camera's exposure limit")
        // One line per algorithm, in the order the algorithms first appear.
        let lines = ExposureVerdict.summaries(of: [run(-2, clipped: 0, algorithm: "naive")] + runs)
        #expect(lines.count == 2 && lines[0].hasPrefix("naive: 0 of 1 in the natural band") && lines[1].hasPrefix("sun: 2 of 6 in the natural band"), "\(lines)")
    }
}
