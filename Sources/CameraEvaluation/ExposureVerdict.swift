import CameraCore
import CameraExposure
import Foundation

/// Where a closed-loop run stands against the output-referred bound: the subject in the natural
/// band — from 1 EV below to ⅓ EV above its intent (shadows may stay a little dark, never washed
/// out) — with no more than 2% of the rest clipped.
enum ExposureVerdict: String, Encodable, CaseIterable {
    /// The subject in the natural band, no more than 2% clipped outside light sources.
    case withinBand
    /// The subject more than ⅓ EV brighter than its intent: lifted too far.
    case tooBright
    /// The subject more than 1 EV darker than its intent.
    case tooDark
    /// The subject in the band, but more than 2% of the rest clipped.
    case clipped

    /// The band around the intent, in EV: a little dark is natural, washed out is not.
    static let band = -1.0...(1.0 / 3)
    /// A subject further than this (EV) above its intent is counted apart in the summary: a wrong
    /// exposure, not a near one.
    static let farOff = 1.0

    /// The verdict on a run settled at `subjectEV` with `clippedFraction` clipped outside light sources.
    init(subjectEV: Double, clippedFraction: Double) {
        if subjectEV > ExposureVerdict.band.upperBound {
            self = .tooBright
        } else if subjectEV < ExposureVerdict.band.lowerBound {
            self = .tooDark
        } else {
            self = clippedFraction <= SunAwareExposure.highlightBudget ? .withinBand : .clipped
        }
    }

    /// The verdict in the `ae-eval` table and report.
    var label: String {
        switch self {
        case .withinBand: "within"
        case .tooBright: "too bright"
        case .tooDark: "too dark"
        case .clipped: "clipped"
        }
    }

    /// Whether the run meets the bound.
    var meetsBound: Bool { self == .withinBand }

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
        func count(_ verdict: ExposureVerdict) -> Int { results.filter { $0.verdict == verdict }.count }
        let farBright = results.filter { $0.subjectEvError > ExposureVerdict.farOff }.count
        let limited = results.filter(\.atDeviceLimit).count
        return "\(count(.withinBand)) of \(results.count) in the natural band; \(count(.tooBright)) too bright (\(farBright) by more than 1 EV), "
            + "\(count(.tooDark)) too dark, \(count(.clipped)) clipping over 2%; "
            + String(format: "median subject ΔEV %+.2f", median(results.map(\.subjectEvError)))
            + (limited > 0 ? "; \(limited) at the camera's exposure limit" : "")
    }
}
