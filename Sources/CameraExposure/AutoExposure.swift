import CameraCore
import CameraMetering
import Foundation

/// The exposure side of the 3A engine: modes like AVFoundation's, an EV bias that ramps and
/// applies in locked mode too, a tap-to-meter point, and the sun-aware algorithm doing the work.
///
/// Each frame, `update` turns the frame's statistics and metadata into the settings to request.
public struct AutoExposure: Sendable {
    /// What drives the exposure.
    public enum Mode: Sendable, Hashable {
        /// The algorithm meters every frame.
        case continuousAuto
        /// Meter until converged, then lock.
        case autoOnce
        /// Hold the exposure (the bias still applies, as Apple documents for locked mode).
        case locked
        /// Fixed duration (seconds) and analogue gain, validated against the program.
        case custom(duration: Double, gain: Double)
    }

    public private(set) var mode: Mode = .continuousAuto
    public private(set) var state: AEState = .searching
    /// The metered error of the last automatic frame in EV (positive: over-exposed).
    public var evError: Double { algorithm.evError }
    public var program: ExposureProgram
    public let biasRange: ClosedRange<Double>
    /// Where the bias is now, and where it is heading.
    public private(set) var bias: EVRamp
    private var algorithm = SunAwareExposure()
    /// How the image pipeline renders the last frame: the algorithm's lift of the subject while it
    /// meters, held with the exposure while locked, none for a custom exposure.
    public private(set) var renderGain = RenderGain.none
    /// What the last frame was exposed for (`SunAwareExposure.subjectRegion`), held with the
    /// exposure while locked, nil for a custom exposure.
    public private(set) var subjectRegion: NormalizedRect?
    /// The constraints the last automatic frame's sensor exposure met
    /// (`SunAwareExposure.constraints`), held while locked, none for a custom exposure.
    public private(set) var constraints = ExposureConstraints.none
    /// The locked total exposure and the bias it was locked at.
    private var locked: (total: Double, bias: Double)?
    private var lastTotal: Double?
    /// Seconds the frames have been black or white, or the exposure pinned at a limit.
    private var stuckSeconds = 0.0
    /// Why the watchdog last restarted the loop, for logs and the status display: kept until the
    /// loop has converged again on frames that are neither black, white nor at a limit.
    public private(set) var watchdogReason: String?
    /// Anti-flicker: off, a fixed mains frequency, or auto (detected from the frames).
    public private(set) var flicker: FlickerMode = .off
    /// The light's flicker (100 or 120 Hz, twice the mains frequency), or nil: looked for in every
    /// mode, so the viewfinder and `meter` can warn of it; with `.auto` the first sighting makes
    /// exposures flicker-safe, and the flicker stays reported while they are, although the whole
    /// periods they span leave no bands to see.
    public private(set) var detectedFlicker: Double?
    private var flickerDetector = FlickerDetector()

    /// After this long black, white or at a range limit, an automatic mode starts afresh.
    public static let watchdogSeconds = 5.0

    public init(program: ExposureProgram, biasRange: ClosedRange<Double> = -8...8) {
        self.program = program
        self.biasRange = biasRange
        bias = EVRamp()
    }

    /// Changes the mode. Locking keeps the last exposure; custom values outside the program's
    /// ranges throw, naming the range.
    public mutating func setMode(_ newMode: Mode) throws(ValueOutOfRangeError) {
        if case .custom(let duration, let gain) = newMode {
            _ = try ValueOutOfRangeError.check(duration, in: program.durationRange, setting: "exposure duration", unit: "s")
            _ = try ValueOutOfRangeError.check(gain, in: program.analogueGainRange, setting: "analogue gain")
        }
        mode = newMode
        switch newMode {
        case .locked:
            locked = lastTotal.map { ($0, bias.current) }
            state = .locked
        case .custom:
            state = .locked
        case .continuousAuto, .autoOnce:
            locked = nil
            state = .searching
        }
    }

    /// Sets the exposure bias (the user's EV), reached at the ramp's rate. This is the hybrid of
    /// the seed: the user's EV takes over; `resetBias` returns to full auto.
    public mutating func setBias(_ ev: Double) throws(ValueOutOfRangeError) {
        bias.ramp(to: try ValueOutOfRangeError.check(ev, in: biasRange, setting: "exposure bias", unit: "EV"))
    }

    /// The user's shadows control (`SunAwareExposure.shadows`), −2…2: from the next frame on the
    /// sun-aware render lifts the shadows more (positive) or less; a locked exposure's picture
    /// takes it at once. The classic metering modes and a custom exposure render no gain and
    /// ignore it.
    public var shadows: Double { algorithm.shadows }

    /// Sets the shadows control; outside `SunAwareExposure.shadowsRange` it throws, naming the range.
    public mutating func setShadows(_ shadows: Double) throws(ValueOutOfRangeError) {
        algorithm.shadows = try ValueOutOfRangeError.check(shadows, in: SunAwareExposure.shadowsRange, setting: "shadows")
        if mode == .locked, algorithm.meteringMode == .sunAware {
            renderGain.contrast = SunAwareExposure.contrast(lifting: renderGain.ev, shadows: shadows)
        }
    }

    /// Ramps the bias back to 0: full auto.
    public mutating func resetBias() {
        bias.ramp(to: 0)
    }

    /// Stops a bias ramp where it is.
    public mutating func cancelBiasRamp() {
        bias.cancel()
    }

    /// Sets anti-flicker. With 50 or 60 Hz exposures become whole flicker periods; with auto they
    /// do once flicker is seen in the frames (and stay so: a light that flickered will again).
    public mutating func setFlicker(_ mode: FlickerMode) {
        flicker = mode
        program.flickerPeriod = mode.period
    }

    /// Meters at a normalised device point (tap to meter), or nil for automatic subject detection.
    public mutating func setExposurePoint(_ point: NormalizedPoint?) throws(ValueOutOfRangeError) {
        if let point {
            _ = try ValueOutOfRangeError.check(point.x, in: 0...1, setting: "exposure point x")
            _ = try ValueOutOfRangeError.check(point.y, in: 0...1, setting: "exposure point y")
        }
        algorithm.exposurePoint = point
    }

    /// The tap-to-meter point, or nil while the algorithm finds the subject.
    public var exposurePoint: NormalizedPoint? { algorithm.exposurePoint }

    /// How the subject is metered: sun-aware (the default) or a classic mode (`SunAwareExposure.meteringMode`).
    public var meteringMode: MeteringMode { algorithm.meteringMode }

    /// Chooses the metering mode; a spot carries its own point.
    public mutating func setMeteringMode(_ mode: MeteringMode) {
        algorithm.meteringMode = mode
    }

    /// The settings to request after a frame, `frameInterval` seconds after the previous one.
    public mutating func update(_ statistics: FrameStatistics, metadata: FrameMetadata, frameInterval: Double) -> ExposureProgram.Settings {
        let currentBias = bias.advance(by: frameInterval)
        lastTotal = metadata.totalExposure
        let seen = flickerDetector.update(rowMeans: statistics.rowMeans, metadata: metadata, frameInterval: frameInterval)
        detectedFlicker = seen ?? (flicker == .auto ? program.flickerPeriod.map { 1 / $0 } : nil)
        if flicker == .auto, program.flickerPeriod == nil, let frequency = detectedFlicker {
            program.flickerPeriod = 1 / frequency
        }
        switch mode {
        case .custom(let duration, let gain):
            renderGain = .none
            subjectRegion = nil
            constraints = .none
            return ExposureProgram.Settings(duration: duration, analogueGain: gain, digitalGain: 1)
        case .locked:
            // Locked before any frame was seen: hold this frame, made at the bias its metadata records.
            let base = locked ?? (metadata.totalExposure, metadata.exposureBias)
            locked = base
            return program.split(base.total * pow(2, currentBias - base.bias))
        case .continuousAuto, .autoOnce:
            watch(statistics, metadata: metadata, seconds: frameInterval)
            var biased = metadata
            biased.exposureBias = currentBias
            let total = algorithm.update(statistics, metadata: biased)
            renderGain = algorithm.renderGain
            subjectRegion = algorithm.subjectRegion
            constraints = algorithm.constraints
            state = algorithm.state
            if mode == .autoOnce, state == .converged {
                mode = .locked
                locked = (total, currentBias)
                state = .locked
            }
            return program.split(total)
        }
    }

    /// The watchdog for unattended cameras: frames that stay black or white, or an exposure that
    /// sits at a limit of the program, for `watchdogSeconds` restart the loop's fast start (webcam
    /// servers are known to leave black night frames and white day frames for hours).
    private mutating func watch(_ statistics: FrameStatistics, metadata: FrameMetadata, seconds: Double) {
        let total = metadata.totalExposure
        let reason: String? = switch true {
        case statistics.brightness < 0.02: "frames black"
        case statistics.brightness > 0.98: "frames white"
        case total <= program.minimumTotal * 1.01: "exposure at its shortest"
        case total >= program.maximumTotal * 0.99: "exposure at its longest"
        default: nil
        }
        guard let reason else {
            stuckSeconds = 0
            if algorithm.state == .converged { watchdogReason = nil }
            return
        }
        stuckSeconds += seconds
        if stuckSeconds >= AutoExposure.watchdogSeconds - 1e-9 {
            watchdogReason = "\(reason) for \(String(format: "%.1f", stuckSeconds)) s at \(String(format: "%.6f", total)) s·gain — restarted auto-exposure"
            var restarted = SunAwareExposure(exposurePoint: algorithm.exposurePoint, fixedIntent: algorithm.fixedIntent)
            restarted.meteringMode = algorithm.meteringMode
            restarted.shadows = algorithm.shadows
            algorithm = restarted
            stuckSeconds = 0
        }
    }
}
