import Foundation

/// The `ae-eval` table: one row per run — frames to converge, subject ΔEV, clipping and crushing
/// in the output, oscillations, the settled sensor exposure and render gain, TMQI and the verdict
/// (a run whose exposure sits at the camera's limit says so) — then a blank line and each
/// algorithm's summary.
public enum AEEvalTable {
    /// The table's lines, to print as they are.
    public static func lines(_ results: [ClosedLoopEvaluation.Result]) -> [String] {
        let sceneWidth = results.map(\.scene.count).max().map { max($0 + 1, 19) } ?? 19
        var lines = ["scene".padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
            + "algorithm        converge  subject ΔEV  clipped  crushed  oscillations  sensor EV  render EV   TMQI  verdict"]
        for result in results {
            let tmqi = result.tmqi.map { String(format: "%5.3f", $0) } ?? "    —"
            lines.append(result.scene.padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 17, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %6.1f%%  %12d  %+9.2f  %+9.2f  ", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.crushedFraction * 100, result.oscillations, result.sensorExposureEV,
                         result.renderGainEV)
                + tmqi + "  " + result.verdict.label + (result.atDeviceLimit ? " (at the camera's limit)" : ""))
        }
        return lines + [""] + ExposureVerdict.summaries(of: results)
    }
}
