import CameraCore
import Foundation

/// What `hdr-eval` found on one list of scenes (the built-in scenes, or one `--views` file), in the
/// terms of the HDR photo issue's acceptance: how many bracketed photos meet the output bound,
/// each method's median MEF-SSIM and TMQI, and the bracket's SNR gain where the subject is darkest.
///
/// The darkest-subject scenes are those whose subject needs a lift of at least the bracket's
/// longest offset over the sensor's exposure to reach its intended level — the single frame's
/// render gain less its subject error, so the scene's darkness and not the auto-exposure's guess of
/// it: there the longest frame exposes the subject no brighter than the picture should show it, so
/// all its extra light goes into the subject's SNR (where the picture clips a subject it lifted
/// too far, its noise is clipped away too, which says nothing of the merge).
public struct HDRListSummary: Encodable, Sendable {
    /// One method's medians over the list.
    public struct Medians: Encodable, Sendable {
        public let method: String
        public let mefSSIM: Double
        public let tmqi: Double
    }

    public let list: String
    public let scenes: Int
    /// Scenes whose bracketed photo meets the output bound.
    public let bracketWithinBound: Int
    public let medians: [Medians]
    /// The darkest-subject scenes (see above) and the bracket's SNR gain over the single frame on each (dB).
    public let darkestSubjects: [String: Double]

    /// The summary of each list in `rows`, in the order the lists first appear; `longestOffset` is
    /// the bracket's longest offset (EV).
    public static func summaries(of rows: [HDREvaluation.Row], longestOffset: Double) -> [HDRListSummary] {
        var lists: [String] = []
        for row in rows where !lists.contains(row.list) { lists.append(row.list) }
        return lists.map { list in HDRListSummary(rows.filter { $0.list == list }, list: list, longestOffset: longestOffset) }
    }

    init(_ rows: [HDREvaluation.Row], list: String, longestOffset: Double) {
        let bracketRows = rows.filter { $0.method == HDREvaluation.bracketMethod }
        var methods: [String] = []
        for row in rows where !methods.contains(row.method) { methods.append(row.method) }
        self.list = list
        scenes = bracketRows.count
        bracketWithinBound = bracketRows.count { $0.withinBound }
        medians = methods.map { method in
            let scored = rows.filter { $0.method == method }
            return Medians(method: method, mefSSIM: median(scored.map(\.mefSSIM)), tmqi: median(scored.map(\.tmqi)))
        }
        var gains: [String: Double] = [:]
        for row in bracketRows {
            guard let single = rows.first(where: { $0.scene == row.scene && $0.method == HDREvaluation.singleMethod }),
                  single.renderGainEV - single.subjectEvError >= longestOffset else { continue }
            gains[row.scene] = row.subjectSnrDb - single.subjectSnrDb
        }
        darkestSubjects = gains
    }

    /// The bracket's medians are at least each peer's (the acceptance's "≥ enfuse's and OpenCV
    /// Mertens' on the median view").
    public var bracketAtLeastPeers: (mefSSIM: Bool, tmqi: Bool) {
        guard let ours = medians.first(where: { $0.method == HDREvaluation.bracketMethod }) else { return (false, false) }
        let peers = medians.filter { $0.method != HDREvaluation.bracketMethod && $0.method != HDREvaluation.singleMethod }
        return (peers.allSatisfy { ours.mefSSIM >= $0.mefSSIM }, peers.allSatisfy { ours.tmqi >= $0.tmqi })
    }
}
