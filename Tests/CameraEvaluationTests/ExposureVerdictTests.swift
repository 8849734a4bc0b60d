@testable import CameraEvaluation
import Testing

/// The verdict on a closed-loop run: within the bound, the subject winning, the budget's answer, or missed.
@Suite struct ExposureVerdictTests {
    @Test("Each run is judged by its subject ΔEV and clipping against its scene's budget cost",
          arguments: [
              // subject ΔEV, clipped, budget cost, verdict
              (0.2, 0.01, 0.0, ExposureVerdict.withinBound),
              (-0.30, 0.0, 0.56, .withinBound),
              (-0.34, 0.0, 0.0, .miss),
              (0.1, 0.3, 4.0, .subjectWins),
              (0.4, 0.3, 4.0, .miss),
              (-1.5, 0.0, 1.5, .miss),
              // Up to 1 EV the budget wins: clipping beyond 2% there is a fault, not a price.
              (0.1, 0.3, 1.0, .miss),
              (0.72, 0.27, 0.56, .miss),
              (-0.96, 0.0, 0.88, .budgetsAnswer),
              (-0.60, 0.02, 0.88, .budgetsAnswer),
              (-0.96, 0.05, 0.88, .miss),
              (-0.50, 0.0, 0.88, .miss),
              (-0.50, 0.0, 0.2, .miss),
          ] as [(Double, Double, Double, ExposureVerdict)])
    func verdict(subjectEV: Double, clipped: Double, cost: Double, expected: ExposureVerdict) {
        #expect(ExposureVerdict(subjectEV: subjectEV, clippedFraction: clipped, budgetCost: cost) == expected)
    }

    @Test("The bound as worded holds within it and where the subject wins; the budget's answer is apart")
    func meetsBound() {
        #expect(ExposureVerdict.allCases.filter(\.meetsBound) == [.withinBound, .subjectWins])
    }

    @Test("A run's verdict follows its scene's budget cost, and the summary counts each and the typical error")
    func summary() {
        func run(_ subjectEV: Double, clipped: Double, cost: Double?, algorithm: String = "sun") -> ClosedLoopEvaluation.Result {
            let samples = (0..<10).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8,
                                                                     subjectEV: subjectEV, clippedFraction: clipped) }
            var result = ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: algorithm)
            result.highlightBudgetCost = cost
            return result
        }
        let runs = [run(0.1, clipped: 0, cost: 0), run(0.2, clipped: 0.4, cost: 3), run(-0.9, clipped: 0, cost: 0.8),
                    run(1.6, clipped: 0.5, cost: 0), run(-0.5, clipped: 0, cost: nil)]
        #expect(runs.map(\.verdict) == [.withinBound, .subjectWins, .budgetsAnswer, .miss, nil])
        #expect(ExposureVerdict.summary(of: runs) == "2 of 5 within the bound (1 of them the subject winning), 1 at the budget's answer, "
            + "1 missed; median |subject ΔEV| 0.50, 1 more than 1 EV off")
        // One line per algorithm, in the order the algorithms first appear.
        let lines = ExposureVerdict.summaries(of: [run(-2, clipped: 0, cost: 0, algorithm: "naive")] + runs)
        #expect(lines.count == 2 && lines[0].hasPrefix("naive: 0 of 1 within the bound") && lines[1].hasPrefix("sun: 2 of 5 within the bound"), "\(lines)")
    }
}
