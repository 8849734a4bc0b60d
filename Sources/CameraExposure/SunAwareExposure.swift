import CameraCore
import CameraMetering
import Foundation

/// CameraSun's auto-exposure. It meters the subject — the tap point, or the subject of a backlit
/// scene (`BacklitSubject`), or else a centre-weighted median — leaving out the sun, other light
/// sources and their glare; aims it at mid-grey shifted by the bias and by the subject's intent
/// (night stays dark, snow stays white); keeps clipping outside the sun within a highlight budget
/// unless that would put the subject more than 1 EV under (then the subject wins), fading a change
/// of that decision in; and corrects a large error at once, a small one gently, and none inside a
/// dead band.
public struct SunAwareExposure: ExposureAlgorithm {
    public let name = "sun"
    /// A normalised point to meter instead of detecting the subject (tap to meter).
    public var exposurePoint: NormalizedPoint?
    /// How the subject is metered: `.sunAware` (the default) finds it as described above; any
    /// other mode meters as `Meter` does and targets plain mid-grey, without intent or highlight
    /// budget — what a photographer who picks average, centre, spot or matrix asks for.
    public var meteringMode = MeteringMode.sunAware
    /// The subject's intent in EV when known (e.g. from a tap on a known surface); nil to derive
    /// it from the subject's luminance.
    public var fixedIntent: Double?
    public private(set) var state: AEState = .searching
    /// The last frame's exposure error in EV (positive: over-exposed), subject against its target.
    public private(set) var evError = 0.0
    private var hasConverged = false
    /// Stops from the metered subject up to the brightest 2% outside the sun: measured while those
    /// highlights are not clipped, a lower bound while they are. Kept between frames so the
    /// budget decision does not flip between the exposure that clips and the one that doesn't.
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
    /// Whether the scene is being metered as backlit. Clipping squeezes the measured contrast, so
    /// the flag is raised at `SceneFlags.backlitThreshold` and dropped only below `backlitRelease`.
    private var backlit = false
    private var backlitSubjectLevel = SubjectLevelFilter()
    /// Whether the frame's large clipped blobs are held to be sky or a wall rather than light
    /// sources. Near `HighlightMask.maximumLightSourceFraction` the mask's reading follows the
    /// exposure (a softbox over a fifth of the frame is a lamp a stop darker, a wall a stop
    /// brighter), and metering with and without it sent the exposure round in a cycle. So once the
    /// mask finds too many light sources they stay out of it until they cover under `brokenSkyRelease`.
    private var brokenSky = false
    /// The EV the highlight budget takes from the subject, as applied, and whether the subject won
    /// on the last frame. Where the budget's cost crosses `subjectWinsMargin` (a pan along a
    /// sunset) the decision flips the exposure by up to 1 EV; in a scene the exposure has settled
    /// in, the flip fades in by `budgetStep` a frame (while `fading`) instead of jumping.
    private var budgetOffset = 0.0
    private var subjectWins = false
    private var fading = false

    public static let backlitRelease = 1.0
    static let goneHighlightMargin = 1.0
    public static let brokenSkyRelease = HighlightMask.maximumLightSourceFraction / 2

    /// Non-sun clipped fraction allowed when it costs the subject at most `subjectWinsMargin` EV.
    public static let highlightBudget = 0.02
    public static let subjectWinsMargin = 1.0
    /// EV a frame by which a flip of the subject-wins decision fades in: 1 EV in four frames.
    public static let budgetStep = 0.25
    /// The level the brightest 2% of cell means outside the sun may reach (linear, of full scale),
    /// as libcamera's highlight constraint has it. A cell's mean sits below its brightest pixels:
    /// at a ceiling of full scale, textured highlights clipped at the exposure their cells called
    /// safe, and the budget flipped between clipping and not every few frames.
    public static let highlightCeiling = 0.8
    /// Errors inside this many EV are left alone (no hunting); within `convergedError` the state is converged.
    public static let deadBand = 1.0 / 24
    public static let convergedError = 1.0 / 6
    public static let spotRadius = 0.08
    /// How far below the frame's centre the default metering is centred (a fraction of the height).
    public static let subjectDrop = 0.2

    public init(exposurePoint: NormalizedPoint? = nil, fixedIntent: Double? = nil) {
        self.exposurePoint = exposurePoint
        self.fixedIntent = fixedIntent
    }

    public mutating func update(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let apparent = statistics.highlights.apparentSourceFraction
        brokenSky = apparent > (brokenSky ? SunAwareExposure.brokenSkyRelease : HighlightMask.maximumLightSourceFraction)
        let statistics = brokenSky && statistics.highlights.lightSourceCount > 0 ? statistics.withoutLightSources() : statistics
        let gain = meteringMode == .sunAware ? subjectGain(statistics, metadata: metadata) : meteredGain(statistics, metadata: metadata)
        let current = metadata.totalExposure
        let error = log2(gain)
        evError = -error
        let speed: Double
        switch abs(error) {
        case _ where !hasConverged: speed = 1
        case ..<SunAwareExposure.deadBand: speed = 0
        case ..<SunAwareExposure.convergedError: speed = 0.3
        case ..<1: speed = 0.7
        // A large error is measured well (the metadata says what made the frame): take it whole.
        default: speed = 1
        }
        if abs(error) <= SunAwareExposure.convergedError {
            hasConverged = true
            state = .converged
        } else {
            state = .searching
        }
        return current * pow(2, speed * error)
    }

    /// The gain that puts the detected subject at its intent, within the highlight budget.
    private mutating func subjectGain(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let meteredLinear = meteredSubject(statistics, metadata: metadata)
        let intent = fixedIntent ?? SubjectIntent.ev(forLuminance: metadata.sceneLuminance(linearMean: meteredLinear))
        let target = Meter.midGrey * pow(2, intent + metadata.exposureBias)
        // A clipped subject (at full scale) reads as 2 stops over.
        let subjectGain = target / (meteredLinear >= 0.98 ? 4 * target : max(meteredLinear, 1.0 / 4096))
        return withinHighlightBudget(statistics, subjectGain: subjectGain, subjectMetered: meteredLinear, target: target,
                                     exposure: metadata.totalExposure)
    }

    /// The gain that puts the `meteringMode` reading at mid-grey shifted by the bias.
    private func meteredGain(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let reading = Meter.meter(statistics, mode: meteringMode, bias: metadata.exposureBias)
        return reading.metered >= 0.98 ? 0.25 : reading.target / max(reading.metered, 1.0 / 4096)
    }

    /// The subject's linear luminance: the tap point's, a backlit scene's subject's
    /// (`BacklitSubject`), or else the centre-weighted median about a point below the middle, where
    /// subjects stand (and sky is not). Medians, not means, where a few cells at the subject's edge
    /// that hold sky would otherwise outweigh it.
    mutating func meteredSubject(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        let kinds = statistics.highlights.kinds
        let aspect = Double(statistics.size.width) / Double(statistics.size.height)
        if let point = exposurePoint {
            return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
                let dx = (x - point.x) * aspect, dy = y - point.y
                return kinds[cell] != lightSource && (dx * dx + dy * dy).squareRoot() <= SunAwareExposure.spotRadius ? 1 : 0
            })
        }
        let contrast = SceneFlags(statistics: statistics, metadata: nil).backlitContrast
        backlit = backlit ? contrast >= SunAwareExposure.backlitRelease
            : contrast >= SceneFlags.backlitThreshold
        if backlit, let subject = BacklitSubject(statistics).meteredLinear() {
            let exposure = log2(metadata.totalExposure)
            return pow(2, backlitSubjectLevel.update(log2(max(subject, 1.0 / 4096)) - exposure) + exposure)
        }
        backlitSubjectLevel.reset()
        return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
            kinds[cell] == lightSource ? 0 : max(MeteringMode.centreWeight(x: x, y: y - SunAwareExposure.subjectDrop), 0.25)
        })
    }

    /// The weighted median of cells: no bright window, sky or subject edge dominates it.
    static func median(_ cells: [(value: Double, weight: Double)]) -> Double {
        let sorted = cells.sorted { $0.value < $1.value }
        let total = sorted.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return Meter.midGrey }
        var cumulative = 0.0
        for cell in sorted {
            cumulative += cell.weight
            if cumulative >= total / 2 { return cell.value }
        }
        return sorted.last!.value
    }

    /// `subjectGain`, lowered so the brightest 2% outside the sun stay under `highlightCeiling` (at most
    /// `highlightBudget` clips) — unless that takes more than `subjectWinsMargin` EV from the
    /// subject: then the subject wins and the highlights clip.
    mutating func withinHighlightBudget(_ statistics: FrameStatistics, subjectGain: Double, subjectMetered: Double, target: Double,
                                        exposure: Double) -> Double {
        let clipping = statistics.highlights.nonSunClippedFraction > SunAwareExposure.highlightBudget
        let sceneLevel = log2(max(subjectMetered, 1e-6) / exposure)
        if clipping {
            // Clipped highlights are at least full scale: a lower bound, kept at its largest.
            highlightExcess = max(highlightExcess ?? -.infinity, log2(1 / max(subjectMetered, 1e-6)) + 0.05)
            clippedAtSceneLevel = sceneLevel
        } else {
            let highlight = SunAwareExposure.nonSunPercentile(statistics, 1 - SunAwareExposure.highlightBudget)
            let measured = log2(max(highlight, 1e-6) / max(subjectMetered, 1e-6))
            if let level = clippedAtSceneLevel, let bound = highlightExcess {
                let gone = statistics.highlights.lightSourceCount == 0 && measured < bound - SunAwareExposure.goneHighlightMargin
                if gone || abs(sceneLevel - level) > SubjectLevelFilter.newSceneJump { clippedAtSceneLevel = nil }
            }
            // Hold a bound from clipping; let a larger measured value fall slowly, so the decision
            // cannot flip frame to frame.
            highlightExcess = highlightExcess.map { max(measured, clippedAtSceneLevel == nil ? $0 - 0.25 : $0) } ?? measured
        }
        // With the subject at target·2^(−x) the highlights sit at target·2^(excess − x) ≤ the ceiling.
        let needed = highlightExcess! + log2(target / SunAwareExposure.highlightCeiling)
        let wins = needed > SunAwareExposure.subjectWinsMargin
        let offset: Double
        if needed <= 0 || wins {
            offset = 0
        } else {
            // Only a lower bound while clipping: look from the lowest exposure the budget may cost.
            offset = clipping ? -SunAwareExposure.subjectWinsMargin : -needed
        }
        // The subject winning or losing in a scene the exposure has settled in fades in; anything
        // else, including a new scene (the last frame off by 1 EV or more), is taken at once.
        if wins != subjectWins {
            subjectWins = wins
            fading = hasConverged && abs(evError) < 1
        }
        let step = fading ? SunAwareExposure.budgetStep : .infinity
        budgetOffset += min(max(offset - budgetOffset, -step), step)
        fading = fading && budgetOffset != offset
        return subjectGain * pow(2, budgetOffset)
    }

    /// The sample-weighted `fraction` quantile of the cell means outside light sources.
    static func nonSunPercentile(_ statistics: FrameStatistics, _ fraction: Double) -> Double {
        let cells = statistics.cells
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        let values = (0..<(cells.columns * cells.rows)).compactMap { cell -> (Double, Double)? in
            guard statistics.highlights.kinds[cell] != lightSource, let mean = cells.mean(cell) else { return nil }
            return (mean, Double(cells.sampleCounts[cell]))
        }.sorted { $0.0 < $1.0 }
        let total = values.reduce(0) { $0 + $1.1 }
        var cumulative = 0.0
        for (value, count) in values {
            cumulative += count
            if cumulative >= fraction * total { return value }
        }
        return values.last?.0 ?? 0
    }
}

/// Where an auto-exposure loop stands.
public enum AEState: String, Sendable, Hashable {
    case searching, converged, locked
}
