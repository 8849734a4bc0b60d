import CameraCore
import Foundation

/// The sun AE's picture summed up for one set of scenes (the built-in scenes, or one view list), in
/// the terms of issue 35's acceptance: the subject in the natural band and never more than 1 EV
/// too bright; TMQI at or above the best of OpenCV's three tone mappers on the same frame; the local
/// tone mapping showing (`--hdr on` above `--hdr off` by `localMargin`); dusk darker by at least
/// `duskDrop`.
struct PictureSummary: Equatable {
    let list: String
    let views: Int
    let withinBand: Int
    /// Views whose subject renders more than `ExposureVerdict.farOff` above its intent.
    let farTooBright: Int
    /// Views where the sun AE's TMQI is at or above every OpenCV mapper's, of those with both.
    let atOrAboveOpenCV: Int, comparedWithOpenCV: Int
    /// Views where `--hdr on` scores at least `localMargin` above `--hdr off`, of those with both,
    /// and the median difference.
    let localShows: Int, comparedLocal: Int
    let medianLocalGain: Double?
    /// Views at least `duskDrop` darker at dusk, of those run at dusk, and the mean change.
    let duskDarker: Int, duskViews: Int
    let meanDuskEV: Double?

    /// The least TMQI `--hdr on` must gain over `--hdr off` for the local part to count as shown.
    static let localMargin = 0.01
    /// How much darker (EV) a view must render at dusk than in daylight.
    static let duskDrop = 1.0

    /// One summary per set, in the order the sets first appear.
    static func lists(_ sections: [AEEvalReport.Section]) -> [PictureSummary] {
        let lists = sections.map(\.list).reduce(into: [String]()) { names, name in
            if !names.contains(name) { names.append(name) }
        }
        return lists.map { list in PictureSummary(list: list, sections: sections.filter { $0.list == list }) }
    }

    init(list: String, sections: [AEEvalReport.Section]) {
        let runs = sections.compactMap(\.sun)
        self.list = list
        views = runs.count
        withinBand = runs.filter { $0.verdict == .withinBand }.count
        farTooBright = runs.filter { $0.subjectEvError > ExposureVerdict.farOff }.count
        let versusOpenCV = sections.compactMap { section -> Bool? in
            guard let ours = section.sun?.tmqi, let best = section.results.filter(\.isOpenCV).compactMap(\.tmqi).max() else { return nil }
            return ours >= best
        }
        (atOrAboveOpenCV, comparedWithOpenCV) = (versusOpenCV.filter { $0 }.count, versusOpenCV.count)
        let localGains = runs.compactMap { run in run.tmqi.flatMap { on in run.globalTmqi.map { on - $0 } } }
        (localShows, comparedLocal) = (localGains.filter { $0 >= Self.localMargin }.count, localGains.count)
        medianLocalGain = localGains.isEmpty ? nil : median(localGains)
        let dusk = runs.compactMap(\.duskEV)
        (duskDarker, duskViews) = (dusk.filter { $0 <= -Self.duskDrop }.count, dusk.count)
        meanDuskEV = dusk.isEmpty ? nil : dusk.reduce(0, +) / Double(dusk.count)
    }

    /// The summary as one line of the table's foot.
    var line: String {
        var text = "\(list): \(withinBand) of \(views) in the natural band, \(farTooBright) more than 1 EV too bright; "
            + "TMQI ≥ the best OpenCV mapper on \(atOrAboveOpenCV) of \(comparedWithOpenCV); "
            + "--hdr on ≥ off + \(String(format: "%.2f", Self.localMargin)) on \(localShows) of \(comparedLocal)"
        if let medianLocalGain { text += String(format: " (median %+.3f)", medianLocalGain) }
        if let meanDuskEV { text += "; dusk ≥ 1 EV darker on \(duskDarker) of \(duskViews)" + String(format: " (mean %+.2f EV)", meanDuskEV) }
        return text
    }

    /// The `count` views with the darkest subjects (furthest below their scene's highlights) of
    /// every set, darkest first, one line each: how dark, the output noise and where it renders.
    static func darkestSubjects(_ sections: [AEEvalReport.Section], count: Int = 10) -> [String] {
        let runs = sections.compactMap(\.sun).filter { $0.subjectBelowHighlightsEV != nil }
            .sorted { $0.subjectBelowHighlightsEV! > $1.subjectBelowHighlightsEV! }.prefix(count)
        return runs.map { run in
            String(format: "%@: subject %.1f EV below the highlights, output noise PSNR %@, subject ΔEV %+.2f (%@)", run.scene,
                   run.subjectBelowHighlightsEV!, run.subjectPsnrDb.map { String(format: "%.1f dB", $0) } ?? "—", run.subjectEvError,
                   run.verdict.label)
        }
    }
}
