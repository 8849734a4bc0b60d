import CameraCore
import CameraExposure
import Foundation

/// Where a closed-loop run stands against the output-referred bound: the subject within ⅓ EV of
/// its intent in the picture, with no more than 2% of the rest clipped there — or the subject
/// winning, where it needed more lift than the sensor's noise allows and the highlights paid.
enum ExposureVerdict: String, Encodable, CaseIterable {
    /// The subject within ⅓ EV of its intent, no more than 2% clipped outside light sources.
    case withinBound
    /// The subject within ⅓ EV where it needed more than `SunAwareExposure.maximumLift`: the
    /// sensor exposure rose for it, and the clipping is the rule's price.
    case subjectWins
    /// Neither.
    case miss

    static let subjectTolerance = 1.0 / 3
    /// A subject further than this (EV) from its intent is counted apart in the summary: a wrong
    /// exposure, not a near one.
    static let farOff = 1.0

    /// The verdict on a run settled at `subjectEV` with `clippedFraction` clipped outside light
    /// sources, the subject having won over the highlights or not.
    init(subjectEV: Double, clippedFraction: Double, subjectWon: Bool) {
        if abs(subjectEV) > ExposureVerdict.subjectTolerance {
            self = .miss
        } else if clippedFraction <= SunAwareExposure.highlightBudget {
            self = .withinBound
        } else {
            self = subjectWon ? .subjectWins : .miss
        }
    }

    /// The verdict in the `ae-eval` table and report.
    var label: String {
        switch self {
        case .withinBound: "within"
        case .subjectWins: "subject wins"
        case .miss: "missed"
        }
    }

    /// Whether the run meets the bound: within it, or the subject wins (marked).
    var meetsBound: Bool { self != .miss }

    /// Each algorithm's runs summed up, one "name: …" line per algorithm in the order they first
    /// appear: how many meet the bound, and how far off the subject typically ends.
    static func summaries(of results: [ClosedLoopEvaluation.Result]) -> [String] {
        let algorithms = results.map(\.algorithm).reduce(into: [String]()) { names, name in
            if !names.contains(name) { names.append(name) }
        }
        return algorithms.map { name in "\(name): " + summary(of: results.filter { $0.algorithm == name }) }
    }

    /// One algorithm's runs summed up (`summaries`).
    static func summary(of results: [ClosedLoopEvaluation.Result]) -> String {
        let verdicts = results.map(\.verdict)
        let errors = results.map { abs($0.subjectEvError) }
        let far = errors.filter { $0 > ExposureVerdict.farOff }.count
        let limited = results.filter(\.atDeviceLimit).count
        return "\(verdicts.filter(\.meetsBound).count) of \(results.count) within the bound "
            + "(\(verdicts.filter { $0 == .subjectWins }.count) of them the subject winning), \(verdicts.filter { $0 == .miss }.count) missed; "
            + String(format: "median |subject ΔEV| %.2f, %d more than 1 EV off", median(errors), far)
            + (limited > 0 ? "; \(limited) at the camera's exposure limit" : "")
    }
}
