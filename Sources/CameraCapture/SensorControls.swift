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

    public init(exposureDuration: Double, analogueGain: Double, digitalGain: Double = 1,
                whiteBalance: WhiteBalanceGains = .unity, lensPosition: Double = 1, zoomFactor: Double = 1,
                exposureBias: Double = 0, flicker: FlickerMode = .off, torchLevel: Double = 0) {
        self.exposureDuration = exposureDuration
        self.analogueGain = analogueGain
        self.digitalGain = digitalGain
        self.whiteBalance = whiteBalance
        self.lensPosition = lensPosition
        self.zoomFactor = zoomFactor
        self.exposureBias = exposureBias
        self.flicker = flicker
        self.torchLevel = torchLevel
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
}
