@testable import CameraEvaluation
import Testing

/// `HDRListSummary` on rows made by hand: lists kept apart and in order, the bound counted on the
/// bracket's rows, medians per method, and the darkest-subject scenes chosen by the lift their
/// subject needs, not by the lift the auto-exposure gave it.
@Suite struct HDRListSummaryTests {
    private func row(_ list: String, _ scene: String, _ method: String, lift: Double = 0, error: Double = 0, mef: Double = 0.9,
                     tmqi: Double = 0.8, snr: Double = 30, inBound: Bool = true) -> HDREvaluation.Row {
        HDREvaluation.Row(list: list, scene: scene, method: method, renderGainEV: lift, subjectEvError: error, clippedFraction: 0,
                          mefSSIM: mef, tmqi: tmqi, subjectSnrDb: snr, withinBound: inBound)
    }

    @Test("one summary per list in first-seen order; the bound counted on the bracket; medians per method")
    func listsAndMedians() {
        let rows = [
            row("b", "x", "camerasun-bracket", mef: 0.90, inBound: true), row("b", "x", "enfuse", mef: 0.95, inBound: false),
            row("a", "y", "camerasun-bracket", mef: 0.91, tmqi: 0.7, inBound: false), row("a", "y", "enfuse", mef: 0.80, tmqi: 0.6),
            row("a", "z", "camerasun-bracket", mef: 0.93, tmqi: 0.9, inBound: true), row("a", "z", "enfuse", mef: 0.84, tmqi: 0.8),
        ]
        let summaries = HDRListSummary.summaries(of: rows, longestOffset: 2)
        #expect(summaries.map(\.list) == ["b", "a"])
        #expect(summaries.map(\.scenes) == [1, 2])
        #expect(summaries.map(\.bracketWithinBound) == [1, 1])
        let medians = summaries[1].medians
        #expect(medians.map(\.method) == ["camerasun-bracket", "enfuse"])
        #expect(abs(medians[0].mefSSIM - 0.92) < 1e-12 && abs(medians[0].tmqi - 0.8) < 1e-12)
        #expect(abs(medians[1].mefSSIM - 0.82) < 1e-12 && abs(medians[1].tmqi - 0.7) < 1e-12)
        #expect(summaries[0].bracketAtLeastPeers == (false, true))
        #expect(summaries[1].bracketAtLeastPeers == (true, true))
    }

    @Test("a darkest subject needs the longest offset's lift: render gain less the single frame's error; its gain is bracket − single")
    func darkestSubjects() {
        let rows = [
            // Lifted 3 EV and on target: needs 3.
            row("l", "dark", "camerasun-bracket", lift: 3, snr: 37), row("l", "dark", "camerasun-single", lift: 3, snr: 30),
            // Lifted 3 EV but 1.5 EV too bright: needs 1.5, so not among the darkest.
            row("l", "overlifted", "camerasun-bracket", lift: 3, error: 1.4, snr: 28),
            row("l", "overlifted", "camerasun-single", lift: 3, error: 1.5, snr: 31),
            // Lifted 1 EV and 1 EV too dark: needs 2, exactly the longest offset.
            row("l", "underlifted", "camerasun-bracket", lift: 1, error: -0.9, snr: 33),
            row("l", "underlifted", "camerasun-single", lift: 1, error: -1, snr: 27),
        ]
        let summary = HDRListSummary.summaries(of: rows, longestOffset: 2)[0]
        #expect(summary.darkestSubjects == ["dark": 7, "underlifted": 6])
    }
}
