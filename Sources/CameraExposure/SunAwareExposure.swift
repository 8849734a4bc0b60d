import CameraCore
import CameraMetering
import Foundation

/// CameraSun's auto-exposure, in two parts (as HDR+ and Smart HDR do it: capture the scene's
/// range, then render it).
///
/// - *Sensor exposure* protects the highlights: the longest exposure that keeps clipping outside
///   light sources (the sun, lamps and their glare, left out as the mask finds them) within
///   `highlightBudget` of the frame — the brightest 2% of the rest at `highlightCeiling` —
///   lowered by a negative EV bias.
/// - *Render gain* places the subject: the tap point, or the subject of a backlit scene
///   (`BacklitSubject`), or else a centre-weighted median, goes to mid-grey × 2^(bias + intent +
///   `aim`) (snow stays white; a dim scene dims, its highlights with it: dusk stays dusk) in the
///   picture the image pipeline renders, the
///   shadows lifted with it and the picture's contrast lowered the more it is lifted
///   (`contrast(lifting:)`). It is decided on the frame it renders, so the sensor's latency never shows.
///
/// The render gain lifts the subject no further than puts the sensor's noise floor (`NoiseFloor`)
/// at the subject's aim: beyond it the lifted noise would show, and the subject stays darker. The
/// highlights win over the shadows (`constraints`), so a wrong subject guess costs some local
/// contrast, never the highlights.
/// Once settled, the subject's aim moves at most a quarter stop a frame where the light has not
/// changed (`AimLimiter`); the loop decides afresh what it holds against flicker when the camera
/// comes to rest on another view (`ViewChange`); and it corrects a large error at once, a small
/// one gently, and none inside a dead band.
public struct SunAwareExposure: ExposureAlgorithm {
    public let name = "sun"
    /// A normalised point to meter instead of detecting the subject (tap to meter).
    public var exposurePoint: NormalizedPoint?
    /// How the subject is metered: `.sunAware` (the default) exposes in two parts as described
    /// above; any other mode meters as `Meter` does and sets the sensor for plain mid-grey, without
    /// intent, highlight protection or render gain — what a photographer who picks average,
    /// centre, spot or matrix asks for.
    public var meteringMode = MeteringMode.sunAware
    /// The subject's intent in EV when known (e.g. from a tap on a known surface); nil to derive
    /// it from the subject's luminance.
    public var fixedIntent: Double?
    /// The user's shadows control, −2…2 (`shadowsRange`), beside the EV bias: how far the tone
    /// curve lifts the shadows towards the subject, each step `contrastPerShadowsStep` off the
    /// contrast the lift chose (`contrast(lifting:shadows:)`); 0 leaves it. The classic metering
    /// modes render no gain and ignore it.
    public var shadows = 0.0
    public private(set) var state: AEState = .searching
    /// The last frame's exposure error in EV (positive: over-exposed), sensor exposure against its target.
    public private(set) var evError = 0.0
    /// How the image pipeline renders the last frame metered: the subject lifted to its target.
    public private(set) var renderGain = RenderGain.none
    /// What the last frame was exposed for, normalised: the tap's spot or the backlit subject
    /// found; nil for the centre-weighted median and the classic modes.
    public private(set) var subjectRegion: NormalizedRect?
    /// The constraints the last frame's sensor exposure met: the highlights' (upper) and the
    /// subject's noise floor (lower); `.none` in the classic metering modes.
    public private(set) var constraints = ExposureConstraints.none
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
    /// How high the sensor exposure may go before the highlights clip (learnt from clipping).
    private var clippingLimit = ClippingLimit()
    /// When the camera comes to rest on another view, the decisions held above are made afresh.
    private var viewChange = ViewChange()

    public static let backlitRelease = 1.0
    public static let brokenSkyRelease = HighlightMask.maximumLightSourceFraction / 2

    /// The fraction of the frame outside light sources that may clip.
    public static let highlightBudget = 0.02
    /// The level (linear, of full scale) the brightest `highlightBudget` of the frame outside light
    /// sources is exposed to — libcamera's highlight constraint — leaving a quarter stop for noise
    /// and for highlights that brighten before the loop follows.
    public static let highlightCeiling = 0.8
    /// Where the subject is aimed, in EV from its intent. The natural band runs from 1 EV below
    /// the intent to ⅓ EV above, and a guessed subject is more often darker than the one a
    /// photographer means (its lift drags theirs up): on the 73 labelled views and scenes, 47 land
    /// in the band at −0.5, 45 at −⅓ and at −0.83, 39 at 0.
    public static let aim = -0.5
    /// The tone curve's contrast per EV of lift (`contrast(lifting:)`) and the least it falls to
    /// (libcamera's shadow curve keeps a power of 0.65 or more): at 0.1 per EV the sun AE's TMQI is
    /// at or above the best OpenCV mapper's on 63 of 73 views, against 47 at full contrast; 0.15
    /// gave the same.
    public static let contrastPerLift = 0.1
    public static let leastContrast = 0.65

    /// The range of the shadows control (`shadows`), as phones have it beside brightness.
    public static let shadowsRange = -2.0...2.0
    /// The contrast one step of `shadows` takes off (a positive step) or gives back. On
    /// backlit-portrait (lift 3.7 EV, contrast 0.65) −2…+2 spans contrast 0.85…0.45: with the
    /// global curve the body's dark stripes flatten or deepen visibly over the range without a
    /// grey, flat picture. The local tone mapping keeps small shadows' texture at full contrast
    /// (`ToneCurve.detailRange`), so there the slope moves only their base.
    public static let contrastPerShadowsStep = 0.1
    /// The contrast range `shadows` moves within: down to 0.4 (the shadows of a backlit portrait
    /// well open, still darker than the subject), up to the scene's own contrast.
    public static let shadowsContrastRange = 0.4...1.0

    /// The contrast (`RenderGain.contrast`) a picture lifted by `lift` EV is rendered with: a
    /// scene whose subject had to be lifted out of a highlight-protecting exposure has more range
    /// than the picture can show, the more so the more it is lifted; the shadows come closer to the
    /// subject, and the local tone mapping keeps their texture. The user's `shadows` then moves it
    /// `contrastPerShadowsStep` a step, within `shadowsContrastRange` (+2 opens the shadows, −2
    /// deepens them, back to full contrast on most scenes).
    static func contrast(lifting lift: Double, shadows: Double = 0) -> Double {
        let automatic = min(max(1 - contrastPerLift * max(lift, 0), leastContrast), 1)
        let range = shadowsContrastRange
        return min(max(automatic - contrastPerShadowsStep * shadows, range.lowerBound), range.upperBound)
    }

    /// EV the sensor exposure falls by on a frame clipping more than the budget, whose highlights
    /// cannot say how far over they are, before any exposure under it was seen clean (`ClippingLimit`).
    public static let clippedStep = 1.0
    /// The most a converged exposure moves in one frame while its error is under 1 EV (a scene
    /// that does not jump): a movie's picture brightens or darkens without a visible step.
    public static let smoothStep = 0.25
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
            gain = twoPartGain(statistics, metadata: metadata)
        } else {
            forgetDetectedSubject()
            gain = meteredGain(statistics, metadata: metadata)
            renderGain = .none
            subjectRegion = nil
            constraints = .none
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
        let step = hasConverged && abs(error) < 1 ? min(max(speed * error, -Self.smoothStep), Self.smoothStep) : speed * error
        if abs(error) <= SunAwareExposure.convergedError {
            hasConverged = true
            state = .converged
        } else {
            state = .searching
        }
        return current * pow(2, step)
    }

    /// Whether the exposure has converged and the last frame was within 1 EV of its target: the
    /// subject's aim is then limited (`AimLimiter`), where a new scene is followed at once.
    private var isSettled: Bool { hasConverged && abs(evError) < 1 }

    /// The sensor's gain for this frame — the highlights' (`highlightGain`), the upper of its
    /// `constraints` — and, as `renderGain`, the lift that puts this frame's subject at its target,
    /// or its noise floor there when the subject lies under it.
    private mutating func twoPartGain(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let exposure = log2(metadata.totalExposure)
        var subject = meteredSubject(statistics, metadata: metadata)
        // Dusk stays dusk: the picture dims, its highlights with it, as the scene's own light falls.
        let dimming = SubjectIntent.dimming(sceneLuminance: metadata.sceneLuminance(linearMean: SunAwareExposure.sceneLevel(statistics)))
        let intent = (fixedIntent ?? SubjectIntent.ev(forLuminance: metadata.sceneLuminance(linearMean: subject))) + dimming
        let target = Meter.midGray * pow(2, intent + metadata.exposureBias)
        if exposurePoint == nil {
            let frame = SunAwareExposure.frameLevel(statistics, exposure: exposure)
            subject = pow(2, aimLimiter.limit(log2(max(subject, 1.0 / 4096)) - exposure, frame: frame, settled: isSettled) + exposure)
        }
        let scene = ClippingLimit.sceneLevel(linearMean: statistics.linearMean, exposure: exposure)
        // A frame clipping beyond the budget cannot say how far over it is: the bracket decides.
        let wanted: Double
        if statistics.highlights.nonSunClippedFraction > SunAwareExposure.highlightBudget {
            clippingLimit.clipped(exposure: exposure, scene: scene)
            wanted = .infinity
        } else {
            if statistics.clippedFraction == 0 { clippingLimit.release() } else { clippingLimit.unclipped(exposure: exposure, scene: scene) }
            wanted = exposure + log2(SunAwareExposure.highlightGain(statistics))
        }
        let highlights = clippingLimit.cap(wanted, scene: scene) - exposure
        // A positive bias brightens the picture through the render gain alone: raising the sensor
        // too would clip the highlights the ceiling keeps. A negative one lowers both.
        let sensor = pow(2, highlights + min(metadata.exposureBias, 0))
        // A subject at full scale (a tap on a window) reads as 2 stops over: its exposure comes down.
        guard subject < SceneFlags.clippedLevel else {
            let lift = log2(target / subject)
            renderGain = RenderGain(subjectLevel: subject, ev: lift, contrast: SunAwareExposure.contrast(lifting: lift, shadows: shadows),
                                    white: pow(2, dimming))
            constraints = ExposureConstraints(upper: log2(min(sensor, 0.25)), lower: -.infinity)
            return min(sensor, 0.25)
        }
        let floor = NoiseFloor.level(metadata)
        let lift = log2(target / max(subject, floor, 1.0 / 4096)) + SunAwareExposure.aim
        renderGain = RenderGain(subjectLevel: subject, ev: lift, contrast: SunAwareExposure.contrast(lifting: lift, shadows: shadows),
                                white: pow(2, dimming))
        constraints = ExposureConstraints(upper: log2(sensor), lower: log2(floor / max(subject, 1.0 / 4096)))
        return sensor
    }

    /// The gain that brings the brightest `highlightBudget` of a frame outside light sources (one
    /// clipping within the budget) to `highlightCeiling`. Read from the sampled histogram, leaving
    /// out the light sources' samples as its brightest (the sun and its glare outshine whatever
    /// they stand in front of).
    static func highlightGain(_ statistics: FrameStatistics) -> Double {
        let highlights = statistics.highlights
        let lightSources = highlights.sunFraction
        let rank = 1 - lightSources - highlightBudget * (1 - lightSources)
        let level = SRGB.decode(statistics.histogram.percentile(max(rank, 0)))
        return highlightCeiling / max(level, 1.0 / 4096)
    }

    /// The scene's typical level in the frame (linear, of full scale): the median cell outside
    /// light sources, which a lamp or the sun in view does not raise.
    static func sceneLevel(_ statistics: FrameStatistics) -> Double {
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        let kinds = statistics.highlights.kinds
        return median(weightedCells(statistics) { cell, _, _ in kinds[cell] == lightSource ? 0 : 1 })
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
            let radius = SunAwareExposure.spotRadius
            subjectRegion = NormalizedRect(x: point.x - radius / aspect, y: point.y - radius, width: 2 * radius / aspect, height: 2 * radius)
            return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
                let dx = (x - point.x) * aspect, dy = y - point.y
                return kinds[cell] != lightSource && (dx * dx + dy * dy).squareRoot() <= SunAwareExposure.spotRadius ? 1 : 0
            })
        }
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        // A backlight at full scale reads the contrast low: it cannot end a backlit scene.
        backlit = backlit ? flags.backlitContrast >= SunAwareExposure.backlitRelease || flags.backlightClipped
            : flags.backlitContrast >= SceneFlags.backlitThreshold
        if backlit, let subject = BacklitSubject(statistics).metered() {
            subjectRegion = subject.region
            // Filtered scene-referred: log2 of the metered value over the exposure that made the frame.
            let exposure = log2(metadata.totalExposure)
            return pow(2, backlitSubjectLevel.update(log2(max(subject.linear, 1.0 / 4096)) - exposure) + exposure)
        }
        backlitSubjectLevel.reset()
        subjectRegion = nil
        return SunAwareExposure.median(weightedCells(statistics) { cell, x, y in
            kinds[cell] == lightSource ? 0 : max(MeteringMode.centerWeight(x: x, y: y - SunAwareExposure.subjectDrop), 0.25)
        })
    }

    /// Forgets what was held against flicker in the last view (`ViewChange`): the backlit and
    /// broken-sky flags and the clipping limit are decided on this view as from a fresh start.
    private mutating func forgetView() {
        backlit = false
        brokenSky = false
        clippingLimit = ClippingLimit()
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
