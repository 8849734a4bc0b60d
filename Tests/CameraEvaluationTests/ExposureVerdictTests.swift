@testable import CameraEvaluation
import CameraExposure
import Testing

/// The verdict on a closed-loop run's output: within the bound, the subject winning, or missed.
@Suite struct ExposureVerdictTests {
    @Test("Each run is judged by its output subject ΔEV and clipping, and whether the subject won over the highlights",
          arguments: [
              // subject ΔEV, clipped, subject won, verdict
              (0.2, 0.01, false, ExposureVerdict.withinBound),
              (-0.33, 0.02, false, .withinBound),
              (-0.34, 0.0, false, .miss),
              (0.1, 0.3, true, .subjectWins),
              (0.1, 0.3, false, .miss),
              (0.4, 0.3, true, .miss),
              (-1.5, 0.0, true, .miss),
          ] as [(Double, Double, Bool, ExposureVerdict)])
    func verdict(subjectEV: Double, clipped: Double, won: Bool, expected: ExposureVerdict) {
        #expect(ExposureVerdict(subjectEV: subjectEV, clippedFraction: clipped, subjectWon: won) == expected)
    }

    @Test("The bound holds within it and where the subject wins")
    func meetsBound() {
        #expect(ExposureVerdict.allCases.filter(\.meetsBound) == [.withinBound, .subjectWins])
    }

    @Test("A run's verdict follows its settled lift, and the summary counts each, the typical error and the runs at the camera's limit")
    func summary() {
        func run(_ subjectEV: Double, clipped: Double, lift: Double = 2, atLimit: Bool = false, algorithm: String = "sun") -> ClosedLoopEvaluation.Result {
            let samples = (0..<10).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, renderGainEV: lift,
                                                                     subjectEV: subjectEV, clippedFraction: clipped, crushedFraction: 0) }
            return ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: algorithm, atDeviceLimit: atLimit)
        }
        let runs = [run(0.1, clipped: 0), run(0.2, clipped: 0.4, lift: SunAwareExposure.maximumLift), run(-0.9, clipped: 0),
                    run(1.6, clipped: 0.5, atLimit: true), run(-0.5, clipped: 0.4)]
        #expect(runs.map(\.verdict) == [.withinBound, .subjectWins, .miss, .miss, .miss])
        #expect(ExposureVerdict.summary(of: runs) == "2 of 5 within the bound (1 of them the subject winning), 3 missed; "
            + "median |subject ΔEV| 0.50, 1 more than 1 EV off; 1 at the camera's exposure limit")
        // One line per algorithm, in the order the algorithms first appear.
        let lines = ExposureVerdict.summaries(of: [run(-2, clipped: 0, algorithm: "naive")] + runs)
        #expect(lines.count == 2 && lines[0].hasPrefix("naive: 0 of 1 within the bound") && lines[1].hasPrefix("sun: 2 of 5 within the bound"), "\(lines)")
    }
}
