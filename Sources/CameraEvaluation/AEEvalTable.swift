import Foundation

/// The `ae-eval` table: one row per run — frames to converge, subject ΔEV, clipping and crushing
/// in the output, oscillations, the settled sensor exposure and render gain, TMQI with `--hdr on`
/// and off, the subject's output noise, the dusk level change and the verdict (a run whose
/// exposure sits at the camera's limit says so) — then a blank line, each algorithm's summary,
/// each set's `PictureSummary` and the ten darkest subjects.
public enum AEEvalTable {
    /// The table's lines, to print as they are.
    public static func lines(_ sections: [AEEvalReport.Section]) -> [String] {
        let results = sections.flatMap(\.results)
        let sceneWidth = results.map(\.scene.count).max().map { max($0 + 1, 19) } ?? 19
        var lines = ["scene".padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
            + "algorithm        converge  subject ΔEV  clipped  crushed  oscillations  sensor EV  render EV   TMQI  TMQI off  PSNR dB  dusk EV  verdict"]
        func figure(_ value: Double?, _ format: String, width: Int) -> String {
            let text = value.map { String(format: format, $0) } ?? "—"
            return String(repeating: " ", count: max(width - text.count, 0)) + text
        }
        for result in results {
            lines.append(result.scene.padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 17, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %6.1f%%  %12d  %+9.2f  %+9.2f  ", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.crushedFraction * 100, result.oscillations, result.sensorExposureEV,
                         result.renderGainEV)
                + figure(result.tmqi, "%.3f", width: 5) + "  " + figure(result.globalTmqi, "%.3f", width: 8) + "  "
                + figure(result.subjectPsnrDb, "%.1f", width: 7) + "  " + figure(result.duskEV, "%+.2f", width: 7) + "  "
                + result.verdict.label + (result.atDeviceLimit ? " (at the camera's limit)" : ""))
        }
        return lines + [""] + ExposureVerdict.summaries(of: results) + [""] + PictureSummary.lists(sections).map(\.line)
            + ["", "The ten darkest subjects:"] + PictureSummary.darkestSubjects(sections).map { "  " + $0 }
    }
}
