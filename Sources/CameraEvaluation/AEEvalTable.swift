import Foundation

/// The `ae-eval` table: one row per run — frames to converge, subject ΔEV, clipping, oscillations,
/// the scene's budget cost and the verdict — then a blank line and each algorithm's summary.
public enum AEEvalTable {
    /// The table's lines, to print as they are.
    public static func lines(_ results: [ClosedLoopEvaluation.Result]) -> [String] {
        let sceneWidth = results.map(\.scene.count).max().map { max($0 + 1, 19) } ?? 19
        var lines = ["scene".padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
            + "algorithm   converge  subject ΔEV  clipped  oscillations  budget cost  verdict"]
        for result in results {
            let cost = describeBudgetCost(result.highlightBudgetCost)
            lines.append(result.scene.padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %12d  ", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.oscillations)
                + String(repeating: " ", count: max(11 - cost.count, 0)) + cost + "  " + (result.verdict?.label ?? "—"))
        }
        return lines + [""] + ExposureVerdict.summaries(of: results)
    }

    /// A `highlightBudgetCost` for the table and report: EV, "≥8" at the search's depth, "—" when
    /// not measured.
    static func describeBudgetCost(_ cost: Double?) -> String {
        guard let cost else { return "—" }
        return cost >= ClosedLoopEvaluation.budgetSearchDepth ? "≥\(Int(ClosedLoopEvaluation.budgetSearchDepth))" : String(format: "%.2f", cost)
    }
}
