import CameraCore
import CameraExposure
import Foundation

/// Where a closed-loop run stands against the exposure bound: the subject within ⅓ EV of its
/// intent with no more than 2% clipped outside the sun, or the subject-wins case. It reads the
/// run's settled subject ΔEV and clipping against its scene's `highlightBudgetCost`, so the table
/// judges each run by the same rule instead of leaving the reader to.
enum ExposureVerdict: String, Encodable, CaseIterable {
    /// The subject within ⅓ EV of its intent, no more than 2% clipped outside the sun.
    case withinBound
    /// The subject within ⅓ EV where keeping to 2% would cost it more than 1 EV: the rule lets the
    /// subject win, and the clipping is its price.
    case subjectWins
    /// Keeping to 2% costs the subject between ⅓ and 1 EV, so both cannot hold; the run kept to 2%
    /// with the subject within ⅓ EV of that cost under its intent, as the budget's rule asks.
    case budgetsAnswer
    /// None of those.
    case miss

    static let subjectTolerance = 1.0 / 3
    /// A subject further than this (EV) from its intent is counted apart in the summary: a wrong
    /// exposure, not a near one.
    static let farOff = 1.0

    /// The verdict on a run settled at `subjectEV` with `clippedFraction` clipped outside the sun,
    /// on a scene whose subject must go `budgetCost` EV under its intent for 2% to clip.
    init(subjectEV: Double, clippedFraction: Double, budgetCost: Double) {
        let tolerance = ExposureVerdict.subjectTolerance
        let withinBudget = clippedFraction <= SunAwareExposure.highlightBudget
        if abs(subjectEV) <= tolerance {
            if withinBudget {
                self = .withinBound
            } else {
                self = budgetCost > SunAwareExposure.subjectWinsMargin ? .subjectWins : .miss
            }
        } else if budgetCost > tolerance, budgetCost <= SunAwareExposure.subjectWinsMargin, withinBudget,
                  abs(subjectEV + budgetCost) <= tolerance {
            self = .budgetsAnswer
        } else {
            self = .miss
        }
    }

    /// The verdict in the `ae-eval` table and report.
    var label: String {
        switch self {
        case .withinBound: "within"
        case .subjectWins: "subject wins"
        case .budgetsAnswer: "budget's answer"
        case .miss: "missed"
        }
    }

    /// Whether the run meets the bound as the acceptance words it: within it, or the subject wins.
    var meetsBound: Bool { self == .withinBound || self == .subjectWins }

    /// Each algorithm's runs summed up, one "name: …" line per algorithm in the order they first
    /// appear: how many meet the bound, how many give the budget's answer instead, and how far off
    /// the subject typically ends.
    static func summaries(of results: [ClosedLoopEvaluation.Result]) -> [String] {
        let algorithms = results.map(\.algorithm).reduce(into: [String]()) { names, name in
            if !names.contains(name) { names.append(name) }
        }
        return algorithms.map { name in "\(name): " + summary(of: results.filter { $0.algorithm == name }) }
    }

    /// One algorithm's runs summed up (`summaries`).
    static func summary(of results: [ClosedLoopEvaluation.Result]) -> String {
        let verdicts = results.compactMap(\.verdict)
        let count = { (verdict: ExposureVerdict) in verdicts.filter { $0 == verdict }.count }
        let errors = results.map { abs($0.subjectEvError) }
        let far = errors.filter { $0 > ExposureVerdict.farOff }.count
        return "\(verdicts.filter(\.meetsBound).count) of \(results.count) within the bound (\(count(.subjectWins)) of them the subject winning), "
            + "\(count(.budgetsAnswer)) at the budget's answer, \(count(.miss)) missed; "
            + String(format: "median |subject ΔEV| %.2f, %d more than 1 EV off", median(errors), far)
    }
}
