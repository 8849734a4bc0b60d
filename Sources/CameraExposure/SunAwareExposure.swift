import CameraCore
import CameraMetering
import Foundation

/// CameraSun's auto-exposure. It meters the subject — the tap point, or the subject of a backlit
/// scene (`BacklitSubject`), or else a centre-weighted median — leaving out the sun, other light
/// sources and their glare; aims it at mid-grey shifted by the bias and by the subject's intent
/// (night stays dark, snow stays white); keeps clipping outside the sun within a highlight budget
/// unless that would put the subject more than 1 EV under (then the subject wins); once settled,
/// moves its aim at most a quarter stop a frame where the light has not changed (`AimLimiter`);
/// decides afresh what it holds against flicker when the camera comes to rest on another view
/// (`ViewChange`); and corrects a large error at once, a small one gently, and none inside a dead band.
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
    /// Whether the scene is being metered as backlit. Clipping squeezes the measured contrast, so
    /// the flag is raised at `SceneFlags.backlitThreshold` and dropped only below `backlitRelease`,
    /// and not while the backlight is clipped: metering the subject, then a centre whose median
    /// cell had clipped, and the subject again sent the exposure 2 EV round every three frames.
    private(set) var backlit = false
    private var backlitSubjectLevel = SubjectLevelFilter()
    private var aimLimiter = AimLimiter()
    /// Whether the frame's large clipped blobs are held to be sky or a wall rather than light
    /// sources. Near `HighlightMask.maximumLightSourceFraction` the mask's reading follows the
    /// exposure (a softbox over a fifth of the frame is a lamp a stop darker, a wall a stop
    /// brighter), and metering with and without it sent the exposure round in a cycle. So once the
    /// mask finds too many light sources they stay out of it until they cover under `brokenSkyRelease`.
    private var brokenSky = false
    /// What the highlight budget takes from the subject, with its memory of the highlights.
    private var budget = HighlightBudget()
    /// When the camera comes to rest on another view, the decisions held above are made afresh.
    private var viewChange = ViewChange()

    public static let backlitRelease = 1.0
    public static let brokenSkyRelease = HighlightMask.maximumLightSourceFraction / 2

    /// Non-sun clipped fraction allowed when it costs the subject at most `subjectWinsMargin` EV.
    public static let highlightBudget = 0.02
    public static let subjectWinsMargin = 1.0
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
        if viewChange.update(SceneSignature(statistics, exposure: metadata.totalExposure)) { forgetView() }
        let apparent = statistics.highlights.apparentSourceFraction
        brokenSky = apparent > (brokenSky ? SunAwareExposure.brokenSkyRelease : HighlightMask.maximumLightSourceFraction)
        let statistics = brokenSky && statistics.highlights.lightSourceCount > 0 ? statistics.withoutLightSources() : statistics
        let gain: Double
        if meteringMode == .sunAware {
            gain = subjectGain(statistics, metadata: metadata)
        } else {
            forgetDetectedSubject()
            gain = meteredGain(statistics, metadata: metadata)
        }
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

    /// Whether the exposure has converged and the last frame was within 1 EV of its target: the
    /// aim is then limited (`AimLimiter`), where a new scene is followed at once.
    private var isSettled: Bool { hasConverged && abs(evError) < 1 }

    /// The gain that puts the detected subject at its intent, within the highlight budget.
    private mutating func subjectGain(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let meteredLinear = meteredSubject(statistics, metadata: metadata)
        let intent = fixedIntent ?? SubjectIntent.ev(forLuminance: metadata.sceneLuminance(linearMean: meteredLinear))
        let target = Meter.midGray * pow(2, intent + metadata.exposureBias)
        // A clipped subject (at full scale) reads as 2 stops over.
        let subjectGain = target / (meteredLinear >= SceneFlags.clippedLevel ? 4 * target : max(meteredLinear, 1.0 / 4096))
        let offset = budget.offset(statistics, subjectMetered: meteredLinear, target: target, exposure: metadata.totalExposure)
        let gain = subjectGain * pow(2, offset)
        guard exposurePoint == nil else { return gain }
        let exposure = log2(metadata.totalExposure)
        let frame = SunAwareExposure.frameLevel(statistics, exposure: exposure)
        return pow(2, aimLimiter.limit(exposure + log2(gain), frame: frame, settled: isSettled) - exposure)
    }

    /// The frame's own level: log2 of its lower-quartile pixel (linear) over the exposure that made
    /// it, which moves with the light and not with the exposure.
    static func frameLevel(_ statistics: FrameStatistics, exposure: Double) -> Double {
        log2(max(SRGB.decode(statistics.histogram.percentile(0.25)), 1.0 / 4096)) - exposure
    }

    /// The gain that puts the `meteringMode` reading at mid-grey shifted by the bias.
    private func meteredGain(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let reading = Meter.meter(statistics, mode: meteringMode, bias: metadata.exposureBias)
        return reading.metered >= SceneFlags.clippedLevel ? 0.25 : reading.target / max(reading.metered, 1.0 / 4096)
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
            forgetDetectedSubject()
            return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
                let dx = (x - point.x) * aspect, dy = y - point.y
                return kinds[cell] != lightSource && (dx * dx + dy * dy).squareRoot() <= SunAwareExposure.spotRadius ? 1 : 0
            })
        }
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        // A backlight at full scale reads the contrast low: it cannot end a backlit scene.
        backlit = backlit ? flags.backlitContrast >= SunAwareExposure.backlitRelease || flags.backlightClipped
            : flags.backlitContrast >= SceneFlags.backlitThreshold
        if backlit, let subject = BacklitSubject(statistics).meteredLinear() {
            // Filtered scene-referred: log2 of the metered value over the exposure that made the frame.
            let exposure = log2(metadata.totalExposure)
            return pow(2, backlitSubjectLevel.update(log2(max(subject, 1.0 / 4096)) - exposure) + exposure)
        }
        backlitSubjectLevel.reset()
        return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
            kinds[cell] == lightSource ? 0 : max(MeteringMode.centerWeight(x: x, y: y - SunAwareExposure.subjectDrop), 0.25)
        })
    }

    /// Forgets what was held against flicker in the last view (`ViewChange`): the backlit and
    /// broken-sky flags and the highlights' level are decided on this view as from a fresh start.
    private mutating func forgetView() {
        backlit = false
        brokenSky = false
        budget = HighlightBudget()
    }

    /// Forgets the detected subject's level and aim while a tap or a classic metering mode decides
    /// the exposure: when detection resumes, its first reading is taken whole, not approached from
    /// an aim from before.
    private mutating func forgetDetectedSubject() {
        backlitSubjectLevel.reset()
        aimLimiter = AimLimiter()
    }

    /// The weighted median of cells: no bright window, sky or subject edge dominates it.
    static func median(_ cells: [(value: Double, weight: Double)]) -> Double {
        weightedQuantile(cells, 0.5) ?? Meter.midGray
    }
}

/// Where an auto-exposure loop stands.
public enum AEState: String, Sendable, Hashable {
    case searching, converged, locked
}
