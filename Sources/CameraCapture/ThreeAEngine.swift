import CameraCore
import CameraExposure
import CameraMetering
import Foundation

/// Carries out a device's exposure, white-balance and focus settings on every frame while a
/// session runs, so a user only sets modes, points, bias and locks (`device.configure`) and
/// never drives the sensor.
///
/// Each frame it re-maps the device's `DeviceSettings` onto its `ThreeAControls` when they were
/// reconfigured (the store's generation changed), then runs auto-exposure on the frame's
/// statistics, white balance on its colours and contrast autofocus on the sharpness of the focus
/// region, and returns the `SensorControls` to apply for the frames to come.
public struct ThreeAEngine: Sendable {
    public private(set) var controls: ThreeAControls
    public let capabilities: DeviceCapabilities
    /// The settings last mapped onto `controls`, and their generation.
    private var mapped: (settings: DeviceSettings, generation: UInt64)?
    private var lastPresentationTime: MediaTime?
    /// The lens position last asked for; nil until autofocus or manual focus moves the lens.
    private var lensPosition: Double?
    /// The controls the three loops returned for the last frame they ran on (a hold's are not
    /// theirs: a bracket right after another starts from auto-exposure's, not the last one's +2 EV).
    private var lastControls: SensorControls?
    /// The total exposure of the frame auto-exposure last ran on: the one its render gain is for.
    private var meteredExposure: Double?
    /// The exposure, white balance and lens position held while a photo of several frames is
    /// taken, and the render gain its frames show with; nil otherwise. A flash photo's ambient,
    /// pre-flash and flash frames share them (a lens moving between the ambient and the pre-flash
    /// frame would spread bright lights differently, which the pre-flash would take for its own
    /// return) and the flash's light never reaches the 3A loops; a bracket's frames share white
    /// balance and focus, each at its own exposure.
    private(set) var hold: Hold?

    /// Controls held for the next frames, and how their pictures are rendered.
    struct Hold: Sendable {
        var controls: SensorControls
        /// The render gain of a frame made at `reference` (total exposure), each held frame's moved
        /// by its own exposure's difference from it (`RenderGain.movedBy`), so that cutting the
        /// exposure leaves the picture as it was; with no reference, every frame's as it is.
        var renderGain: RenderGain
        var reference: Double?
        /// The total exposure of the last held frame.
        var frameExposure: Double?
        /// EV the picture's subject stays under its aim because the render gain lifts it no further
        /// than the noise floor allows (`ExposureConstraints.shortfall`): the light a flash should
        /// add beyond what the gain lifts.
        var shortfall = 0.0
        /// EV the frames are rendered darker by: what the flash's least power put its subject over
        /// its target (`dimHeldPicture`).
        var dimming = 0.0

        /// The render gain of a frame made at `exposure`.
        func renderGain(forExposure exposure: Double?) -> RenderGain {
            guard let reference, let exposure, reference > 0, exposure > 0 else { return renderGain }
            return renderGain.movedBy(exposure: log2(exposure / reference) + dimming)
        }
    }

    /// The most gain (analogue × digital) the ambient exposure of a flash photo takes in the
    /// automatic exposure modes: ISO 400 on the simulated sensor's ISO 50. Beyond it the flash,
    /// not amplified noise, lights the subject — phones hold the ISO of a flash photo down alike.
    static let flashGainLimit = 8.0

    /// An engine for a device with `capabilities` running at `frameRate` frames per second.
    public init(capabilities: DeviceCapabilities, frameRate: Double) throws(ValueOutOfRangeError) {
        self.capabilities = capabilities
        let program = Self.exposureProgram(for: capabilities, frameRate: frameRate)
        controls = try ThreeAControls(program: program)
        controls.exposure = AutoExposure(program: program, biasRange: capabilities.exposureBias)
    }

    /// The exposure program of a device at a frame rate: durations up to one frame (so the frame
    /// rate holds), then analogue gain, then digital gain up to the device's limit.
    public static func exposureProgram(for capabilities: DeviceCapabilities, frameRate: Double) -> ExposureProgram {
        ExposureProgram(durationRange: durationRange(for: capabilities, frameRate: frameRate),
                        analogueGainRange: capabilities.analogueGain,
                        maximumDigitalGain: capabilities.digitalGain.upperBound)
    }

    private static func durationRange(for capabilities: DeviceCapabilities, frameRate: Double) -> ClosedRange<Double> {
        let shortest = capabilities.exposureDuration.lowerBound
        return shortest...max(shortest, min(capabilities.exposureDuration.upperBound, 1 / frameRate))
    }

    /// How the image pipeline renders the last frame: auto-exposure's lift of the subject, or the
    /// hold's — for a flash photo, auto-exposure's moved by the exposure the hold cut, so the
    /// flash's frame is rendered as the picture without it would be.
    public var renderGain: RenderGain {
        guard let hold else { return controls.exposure.renderGain }
        return hold.renderGain(forExposure: hold.frameExposure)
    }

    /// The linear level a flash photo's subject is aimed at in a frame of `exposure` (total) under
    /// the hold: the level its render gain lifts to the picture's subject target (the subject's
    /// level there, raised by what the lift fell short of), so the subject the flash lights lands
    /// where auto-exposure puts the subject of a picture without it. Mid-grey shifted by the bias
    /// where no gain renders (the classic metering modes: the sensor is set for the picture).
    func flashTarget(forExposure exposure: Double) -> Double {
        guard let hold, let reference = hold.reference, reference > 0 else { return Meter.midGray * pow(2, controls.exposure.bias.current) }
        return hold.renderGain.subjectLevel * exposure / reference * pow(2, hold.shortfall)
    }

    /// Where the three loops stand after the last frame.
    public var status: ThreeAStatus {
        ThreeAStatus(exposureState: controls.exposure.state, exposureError: controls.exposure.evError,
                     exposureBias: controls.exposure.bias.current, shadows: controls.exposure.shadows, exposureMode: controls.exposure.mode,
                     meteringMode: controls.exposure.meteringMode, exposurePoint: controls.exposure.exposurePoint,
                     focusState: controls.focus.state, focusPoint: controls.focusPoint,
                     whiteBalanceState: controls.whiteBalance.state, whiteBalanceMode: controls.whiteBalance.mode,
                     locks: controls.locks, flicker: controls.exposure.detectedFlicker,
                     watchdogReason: controls.exposure.watchdogReason, renderGain: renderGain,
                     subjectRegion: controls.exposure.subjectRegion, exposureShortfall: controls.exposure.constraints.shortfall)
    }

    /// Runs the three loops on one frame, under the settings in `store`, and returns the sensor
    /// controls for the next frames (as held while a flash photo is taken). `raw` is the frame's
    /// raw mosaic when `frame` was developed from one: white balance measures it, where the
    /// gains it applies cannot clip a channel. Throws only for settings the device's validation
    /// let through but the engine cannot take, naming the setting.
    public mutating func update(_ frame: Frame, statistics: FrameStatistics, settings store: DeviceSettingsStore, raw: Frame? = nil)
        throws(ValueOutOfRangeError) -> SensorControls {
        let versioned = store.versioned
        if versioned.generation != mapped?.generation {
            try map(versioned.settings)
            mapped = versioned
        }
        let settings = versioned.settings
        let nominal = 1 / settings.frameRate
        let interval = lastPresentationTime.map { (frame.presentationTime - $0).seconds } ?? nominal
        lastPresentationTime = frame.presentationTime
        var next: SensorControls
        if let hold {
            next = hold.controls
            self.hold?.frameExposure = frame.metadata.totalExposure
        } else {
            meteredExposure = frame.metadata.totalExposure
            let exposure = controls.exposure.update(statistics, metadata: frame.metadata, frameInterval: interval > 0 ? interval : nominal)
            let whiteBalance = controls.whiteBalance.update(frame: raw ?? frame, highlights: statistics.highlights,
                                                            subject: controls.exposure.subjectRegion)
            next = SensorControls(exposureDuration: exposure.duration, analogueGain: exposure.analogueGain,
                                  digitalGain: exposure.digitalGain, whiteBalance: whiteBalance, lensPosition: focusLens(on: frame))
        }
        next.zoomFactor = settings.zoomFactor
        next.exposureBias = controls.exposure.bias.current
        next.flicker = settings.flicker
        next.torchLevel = settings.torchLevel
        if hold == nil { lastControls = next }
        return next
    }

    /// Holds exposure, white balance and focus for a flash photo from the next `update` on: at
    /// what was last asked for (or what `frame` was made with, before any), with the gain of an
    /// automatic exposure brought down to `flashGainLimit` at the longest duration — the flash
    /// lights the rest. A locked or custom exposure is held as it is. The frames are rendered with
    /// auto-exposure's last render gain, shifted by however far each frame's exposure is from the
    /// one it was measured on (none in the classic metering modes, which render no gain).
    mutating func holdForFlash(_ frame: FrameMetadata) {
        var held = currentControls(frame)
        let program = controls.exposure.program
        let limit = program.durationRange.upperBound * Self.flashGainLimit
        if controls.exposure.mode == .continuousAuto || controls.exposure.mode == .autoOnce,
           held.exposureDuration * held.analogueGain * held.digitalGain > limit {
            held.setExposure(program.split(limit))
        }
        let picture = controls.exposure.renderGain
        guard picture != .none else {
            hold = Hold(controls: held, renderGain: .none)
            return
        }
        hold = Hold(controls: held, renderGain: picture, reference: meteredExposure ?? frame.totalExposure,
                    shortfall: controls.exposure.constraints.shortfall)
    }

    /// Renders the held frames from now on as if exposed `ev` more: a flash whose least power
    /// still puts its subject `ev` over its target makes a picture that much darker, the subject
    /// at its target (the dimming of `SequenceStep.fire`).
    mutating func dimHeldPicture(by ev: Double) {
        guard hold?.reference != nil else { return }
        hold?.dimming = max(ev, 0)
    }

    /// Holds `controls` from the next `update` on, the frames rendered with `renderGain`.
    mutating func hold(_ controls: SensorControls, renderGain: RenderGain) {
        hold = Hold(controls: controls, renderGain: renderGain)
    }

    /// The controls auto-exposure, white balance and focus last asked for (or what `frame` was
    /// made with, before any): the base a bracket's exposures are offset from.
    func currentControls(_ frame: FrameMetadata) -> SensorControls {
        lastControls ?? SensorControls(exposureDuration: frame.exposureDuration.seconds, analogueGain: frame.analogueGain,
                                       digitalGain: frame.digitalGain, whiteBalance: frame.whiteBalanceGains, lensPosition: frame.lensPosition)
    }

    /// Lets auto-exposure, white balance and autofocus run again.
    mutating func releaseHold() {
        hold = nil
    }

    /// The lens position for the next frames: autofocus's on the focus region's sharpness (measured
    /// only while focus searches or watches), or held. A fixed-focus lens stays where it is.
    private mutating func focusLens(on frame: Frame) -> Double {
        let range = capabilities.lensPosition
        guard range.lowerBound < range.upperBound else { return range.lowerBound }
        // Sharpness reads every format FrameAnalyzer reads, so it cannot fail on an analysed frame.
        let sharpness = controls.focus.mode.searches ? (try? Sharpness.measure(frame.buffer, region: controls.focusRegion)) ?? 0 : 0
        if case .moveLens(let position) = controls.focus.update(sharpness: sharpness, lensPosition: frame.metadata.lensPosition) {
            lensPosition = position
        }
        return min(max(lensPosition ?? frame.metadata.lensPosition, range.lowerBound), range.upperBound)
    }

    /// Maps what changed in `settings` since the last mapping onto the controls. A custom exposure
    /// longer than one frame is shortened to the frame (the frame rate wins), as the program allows.
    private mutating func map(_ settings: DeviceSettings) throws(ValueOutOfRangeError) {
        let previous = mapped?.settings
        if settings.frameRate != previous?.frameRate {
            controls.exposure.program.durationRange = Self.durationRange(for: capabilities, frameRate: settings.frameRate)
        }
        if settings.exposureMode != previous?.exposureMode || settings.frameRate != previous?.frameRate {
            try controls.exposure.setMode(fitted(settings.exposureMode))
        }
        if settings.exposureBias != previous?.exposureBias {
            try controls.exposure.setBias(settings.exposureBias)
        }
        if settings.shadows != previous?.shadows {
            try controls.exposure.setShadows(settings.shadows)
        }
        if settings.exposurePoint != previous?.exposurePoint {
            try controls.exposure.setExposurePoint(settings.exposurePoint)
        }
        if settings.meteringMode != previous?.meteringMode {
            controls.exposure.setMeteringMode(settings.meteringMode)
        }
        if settings.flicker != previous?.flicker {
            controls.exposure.setFlicker(settings.flicker)
        }
        if settings.focusPoint != previous?.focusPoint {
            // Moves the focus region and searches there; the mode below then says how to go on.
            try controls.setPointOfInterest(settings.focusPoint, exposure: false, focus: true)
        }
        if settings.focusMode != previous?.focusMode || settings.focusPoint != previous?.focusPoint {
            try controls.focus.setMode(settings.focusMode)
        }
        if settings.whiteBalanceMode != previous?.whiteBalanceMode {
            try controls.whiteBalance.setMode(settings.whiteBalanceMode)
        }
    }

    /// `mode` with a custom duration and gain kept within the exposure program.
    private func fitted(_ mode: AutoExposure.Mode) -> AutoExposure.Mode {
        guard case .custom(let duration, let gain) = mode else { return mode }
        let program = controls.exposure.program
        return .custom(duration: min(max(duration, program.durationRange.lowerBound), program.durationRange.upperBound),
                       gain: min(max(gain, program.analogueGainRange.lowerBound), program.analogueGainRange.upperBound))
    }
}
