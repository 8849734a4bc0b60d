import CameraCore
import CameraMetering
import Foundation

/// `SunAwareExposure`'s highlight budget: how far under its target the subject goes so that at
/// most `SunAwareExposure.highlightBudget` of the frame clips outside the sun — unless even the
/// least that could take is more than `SunAwareExposure.subjectWinsMargin` EV from the subject,
/// and then the subject wins and the highlights clip. It remembers how far the highlights stand
/// above the subject, so the decision does not flip between the exposure that clips and the one
/// that doesn't.
struct HighlightBudget {
    /// Stops from the metered subject up to the brightest 2% outside the sun: measured while those
    /// highlights are not clipped, a lower bound while they are.
    private var highlightExcess: Double?
    /// While `highlightExcess` holds a bound learnt from clipping: the subject's scene level (log2
    /// of its metered value over the exposure) on that frame. Clipping is the firmer evidence: at a
    /// lower exposure the percentile of cell means reads the same highlights lower (a cell's mean
    /// hides its brightest pixels, and the glare marked around a light source grows as the exposure
    /// falls), and letting the bound fall to that reading sent the exposure back into the clipping,
    /// in a cycle. So the bound is held while the subject stays in the scene it was learnt in, unless
    /// the highlights have plainly gone: no light source in frame to have taken them in, and the rest
    /// measuring more than `goneHighlightMargin` EV under the bound.
    private var clippedAtSceneLevel: Double?

    static let goneHighlightMargin = 1.0

    /// The EV (0 or less) to take from the subject on this frame, whose subject reads
    /// `subjectMetered` (linear) against its `target` at total exposure `exposure`. The highlights
    /// are kept under `SunAwareExposure.highlightCeiling`, the subject no more than
    /// `SunAwareExposure.subjectWinsMargin` under its target.
    mutating func offset(_ statistics: FrameStatistics, subjectMetered: Double, target: Double, exposure: Double) -> Double {
        let clipping = statistics.highlights.nonSunClippedFraction > SunAwareExposure.highlightBudget
        let excess = learn(statistics, clipping: clipping, subjectMetered: subjectMetered,
                           sceneLevel: log2(max(subjectMetered, 1e-6) / exposure))
        // With the subject at target·2^(−x) the highlights sit at target·2^(excess − x) ≤ the ceiling.
        let needed = excess + log2(target / SunAwareExposure.highlightCeiling)
        // Whether the subject wins is decided on the least the highlights could cost it: up to full
        // scale. The ceiling's margin is for where the budget puts them; deciding on it, the subject
        // won where keeping the highlights cost it under 1 EV (a villa at dusk clipped 10.6%).
        let least = excess + log2(target)
        if needed <= 0 || least > SunAwareExposure.subjectWinsMargin { return 0 }
        // Only a lower bound while clipping: look from the lowest exposure the budget may cost.
        return -(clipping ? SunAwareExposure.subjectWinsMargin : min(needed, SunAwareExposure.subjectWinsMargin))
    }

    /// Updates `highlightExcess` from this frame and returns it: a bound while the highlights clip,
    /// else their measured level — a bound from clipping held, a larger measured value let fall
    /// slowly, so the decision cannot flip frame to frame.
    private mutating func learn(_ statistics: FrameStatistics, clipping: Bool, subjectMetered: Double, sceneLevel: Double) -> Double {
        if clipping {
            // Clipped highlights are at least full scale: a lower bound, kept at its largest.
            let bound = max(highlightExcess ?? -.infinity, log2(1 / max(subjectMetered, 1e-6)) + 0.05)
            highlightExcess = bound
            clippedAtSceneLevel = sceneLevel
            return bound
        }
        let highlight = HighlightBudget.nonSunPercentile(statistics, 1 - SunAwareExposure.highlightBudget)
        let measured = log2(max(highlight, 1e-6) / max(subjectMetered, 1e-6))
        if let level = clippedAtSceneLevel, let bound = highlightExcess {
            let gone = statistics.highlights.lightSourceCount == 0 && measured < bound - HighlightBudget.goneHighlightMargin
            if gone || abs(sceneLevel - level) > SubjectLevelFilter.newSceneJump { clippedAtSceneLevel = nil }
        }
        let excess = highlightExcess.map { max(measured, clippedAtSceneLevel == nil ? $0 - 0.25 : $0) } ?? measured
        highlightExcess = excess
        return excess
    }

    /// The sample-weighted `fraction` quantile of the cell means outside light sources.
    static func nonSunPercentile(_ statistics: FrameStatistics, _ fraction: Double) -> Double {
        let cells = statistics.cells
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        let values = (0..<(cells.columns * cells.rows)).compactMap { cell -> (value: Double, weight: Double)? in
            guard statistics.highlights.kinds[cell] != lightSource, let mean = cells.mean(cell) else { return nil }
            return (mean, Double(cells.sampleCounts[cell]))
        }
        return weightedQuantile(values, fraction) ?? 0
    }
}
