import CameraCore
import CameraISP
import CameraExposure
import CameraMetering

/// What the user asks of a camera: format, frame rate and the 3A modes, points, bias and locks.
/// While a session runs, its 3A engine carries these out on every frame's statistics.
///
/// Changed only inside `CaptureDevice.configure`, which validates the whole value before it
/// takes effect.
public struct DeviceSettings: Sendable, Equatable {
    public var activeFormat: DeviceFormat
    /// Frames per second; must lie in one of `activeFormat`'s frame-rate ranges.
    public var frameRate: Double
    public var exposureMode: AutoExposure.Mode = .continuousAuto
    /// Exposure compensation in EV, within `DeviceCapabilities.exposureBias`. It applies in the
    /// automatic and the locked modes (as Apple documents) and is reached by a smooth ramp.
    public var exposureBias = 0.0
    /// The shadows control, within `SunAwareExposure.shadowsRange` (−2…2): how far the sun-aware
    /// render lifts the shadows towards the subject (`SunAwareExposure.shadows`); 0 leaves the
    /// automatic choice. It applies in the automatic and the locked modes, with sun-aware metering.
    public var shadows = 0.0
    /// The normalised device point to meter (tap to meter); nil lets the engine find the subject.
    public var exposurePoint: NormalizedPoint?
    /// How auto-exposure meters: sun-aware (the default) or a classic average, centre, spot or matrix.
    public var meteringMode = MeteringMode.sunAware
    /// Anti-flicker: exposure times become whole multiples of the mains half-period; on auto (the
    /// default) once mains flicker is seen in the frames.
    public var flicker = FlickerMode.auto
    public var focusMode = FocusMode.continuous
    /// The normalised device point focus is measured around.
    public var focusPoint = NormalizedPoint.center
    public var whiteBalanceMode = WhiteBalanceMode.auto
    /// Within `DeviceCapabilities.zoomFactor`.
    public var zoomFactor = 1.0
    /// 0 (off) … 1; only on devices with a torch.
    public var torchLevel = 0.0
    /// How pictures are tone-mapped: `.local` (HDR on, the default) or `.global` (the plain curve).
    public var toneMapping = ToneMapping.local

    public init(activeFormat: DeviceFormat, frameRate: Double? = nil) {
        self.activeFormat = activeFormat
        self.frameRate = frameRate ?? activeFormat.maximumFrameRate
    }

    /// Whether exposure, focus and white balance are locked (the long-press gesture sets all three).
    public var locks: ThreeAControls.Locks {
        ThreeAControls.Locks(ae: exposureMode == .locked, af: focusMode == .locked, awb: whiteBalanceMode == .locked)
    }

    /// Throws the first value outside what the device supports, naming the setting and its range.
    public func validate(formats: [DeviceFormat], capabilities: DeviceCapabilities) throws {
        guard formats.contains(activeFormat) else {
            throw CaptureError.invalidConfiguration("the device has no format \(activeFormat) — choose one of: "
                + formats.map(\.description).joined(separator: "; "))
        }
        if !activeFormat.supports(frameRate: frameRate) {
            let ranges = activeFormat.frameRateRanges
            let range = (ranges.map(\.minimum).min() ?? 0)...(ranges.map(\.maximum).max() ?? 0)
            throw ValueOutOfRangeError(setting: "frame rate for \(activeFormat.size)", value: frameRate, range: range, unit: "fps")
        }
        _ = try ValueOutOfRangeError.check(exposureBias, in: capabilities.exposureBias, setting: "exposure bias", unit: "EV")
        _ = try ValueOutOfRangeError.check(shadows, in: SunAwareExposure.shadowsRange, setting: "shadows")
        if case .custom(let duration, let gain) = exposureMode {
            _ = try ValueOutOfRangeError.check(duration, in: capabilities.exposureDuration, setting: "exposure duration", unit: "s")
            _ = try ValueOutOfRangeError.check(gain, in: capabilities.analogueGain, setting: "analogue gain")
        }
        for (name, point) in [("exposure point", exposurePoint), ("focus point", focusPoint)] {
            guard let point else { continue }
            _ = try ValueOutOfRangeError.check(point.x, in: 0...1, setting: "\(name) x")
            _ = try ValueOutOfRangeError.check(point.y, in: 0...1, setting: "\(name) y")
        }
        if case .spot(let point, let radius) = meteringMode {
            _ = try ValueOutOfRangeError.check(point.x, in: 0...1, setting: "spot metering point x")
            _ = try ValueOutOfRangeError.check(point.y, in: 0...1, setting: "spot metering point y")
            _ = try ValueOutOfRangeError.check(radius, in: 0.01...0.5, setting: "spot metering radius")
        }
        if case .manual(let lensPosition) = focusMode {
            _ = try ValueOutOfRangeError.check(lensPosition, in: capabilities.lensPosition, setting: "lens position")
        }
        var whiteBalance = AutoWhiteBalance()
        try whiteBalance.setMode(whiteBalanceMode)
        _ = try ValueOutOfRangeError.check(zoomFactor, in: capabilities.zoomFactor, setting: "zoom factor", unit: "x")
        _ = try ValueOutOfRangeError.check(torchLevel, in: capabilities.hasTorch ? 0...1 : 0...0, setting: "torch level")
    }
}
