import CameraCore
import CameraExposure

/// The sensor and lens settings for the frames to come: what the 3A engine (or a custom
/// exposure) decides each frame, and what the device applies — a real sensor a frame or two late,
/// as each frame's metadata then tells.
public struct SensorControls: Sendable, Hashable {
    /// Exposure time in seconds.
    public var exposureDuration: Double
    public var analogueGain: Double
    public var digitalGain: Double
    public var whiteBalance: WhiteBalanceGains
    /// 0 = nearest focus, 1 = infinity.
    public var lensPosition: Double
    public var zoomFactor: Double
    /// The exposure compensation in effect, recorded in frame metadata.
    public var exposureBias: Double
    /// Anti-flicker as set (auto means the engine detects it).
    public var flicker: FlickerMode
    /// Torch level 0 (off) … 1.
    public var torchLevel: Double
    /// Fires the flash once, at this power (0…1 of full), on the next frame the device schedules;
    /// nil fires nothing. A trigger, not a level: the device takes it with the controls it came
    /// with and does not keep it, and the lit frame's `FrameMetadata.flashPower` says which it was.
    public var flashPower: Double?

    public init(exposureDuration: Double, analogueGain: Double, digitalGain: Double = 1,
                whiteBalance: WhiteBalanceGains = .unity, lensPosition: Double = 1, zoomFactor: Double = 1,
                exposureBias: Double = 0, flicker: FlickerMode = .off, torchLevel: Double = 0, flashPower: Double? = nil) {
        self.exposureDuration = exposureDuration
        self.analogueGain = analogueGain
        self.digitalGain = digitalGain
        self.whiteBalance = whiteBalance
        self.lensPosition = lensPosition
        self.zoomFactor = zoomFactor
        self.exposureBias = exposureBias
        self.flicker = flicker
        self.torchLevel = torchLevel
        self.flashPower = flashPower
    }

    /// Throws for the first control outside `capabilities`, naming it and its range: what a
    /// device's `apply` checks before it takes anything. A flash request on a device without a
    /// flash (V4L2 cameras, `ScriptedDevice`) is refused the way a torch level on one without a
    /// torch is.
    public func validate(within capabilities: DeviceCapabilities) throws(ValueOutOfRangeError) {
        _ = try ValueOutOfRangeError.check(exposureDuration, in: capabilities.exposureDuration, setting: "exposure duration", unit: "s")
        _ = try ValueOutOfRangeError.check(analogueGain, in: capabilities.analogueGain, setting: "analogue gain")
        _ = try ValueOutOfRangeError.check(digitalGain, in: capabilities.digitalGain, setting: "digital gain")
        _ = try ValueOutOfRangeError.check(lensPosition, in: capabilities.lensPosition, setting: "lens position")
        _ = try ValueOutOfRangeError.check(zoomFactor, in: capabilities.zoomFactor, setting: "zoom factor", unit: "x")
        _ = try ValueOutOfRangeError.check(exposureBias, in: capabilities.exposureBias, setting: "exposure bias", unit: "EV")
        _ = try ValueOutOfRangeError.check(torchLevel, in: capabilities.hasTorch ? 0...1 : 0...0, setting: "torch level")
        if let flashPower {
            _ = try ValueOutOfRangeError.check(flashPower, in: capabilities.hasFlash ? 0...1 : 0...0,
                                               setting: capabilities.hasFlash ? "flash power" : "flash power (the camera has no flash)")
        }
    }
}

extension SensorControls {
    /// Takes the duration and the analogue and digital gains of an exposure program's split
    /// (what the AE engine decided for the next frames).
    public mutating func setExposure(_ exposure: ExposureProgram.Settings) {
        exposureDuration = exposure.duration
        analogueGain = exposure.analogueGain
        digitalGain = exposure.digitalGain
    }

    /// Takes `held`'s exposure, white balance and lens position (a photo's held controls), keeping
    /// its own zoom, bias, anti-flicker, torch and flash.
    mutating func hold(_ held: SensorControls) {
        (exposureDuration, analogueGain, digitalGain) = (held.exposureDuration, held.analogueGain, held.digitalGain)
        (whiteBalance, lensPosition) = (held.whiteBalance, held.lensPosition)
    }

    /// These controls with `factor` times their exposure on a device with `capabilities`: the
    /// duration first, up to the device's longest (more light, where gain only amplifies), then
    /// analogue gain, then digital gain — a bracket's frame at an EV offset. The duration and
    /// analogue gain are values the device sets as they are (on its steps), so that the frame's
    /// metadata shows exactly these controls.
    public func exposing(times factor: Double, within capabilities: DeviceCapabilities) -> SensorControls {
        var controls = self
        var remaining = exposureDuration * analogueGain * digitalGain * factor
        controls.exposureDuration = capabilities.settableExposureDuration(remaining / (analogueGain * digitalGain))
        remaining /= controls.exposureDuration
        controls.analogueGain = capabilities.settableAnalogueGain(remaining / digitalGain)
        remaining /= controls.analogueGain
        controls.digitalGain = min(max(remaining, capabilities.digitalGain.lowerBound), capabilities.digitalGain.upperBound)
        return controls
    }
}
