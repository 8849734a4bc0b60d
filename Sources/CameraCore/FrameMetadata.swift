/// The capture settings in effect for one frame, as reported by the device.
///
/// Devices apply new settings a few frames after they are requested; the exposure engine must use
/// these values, not the ones it asked for, or it oscillates.
public struct FrameMetadata: Sendable, Hashable {
    public var exposureDuration: MediaTime
    /// Sensor (analogue) gain; 1 is the sensor's base sensitivity.
    public var analogueGain: Double
    /// The ISO speed at analogue gain 1 (50 on the simulated camera).
    public var baseISO: Double
    /// Gain applied after digitisation (≥ 1).
    public var digitalGain: Double
    /// The exposure compensation in EV the exposure engine was asked to apply.
    public var exposureBias: Double
    /// 0 focuses as close as the lens can, 1 at infinity (as AVFoundation's lensPosition).
    public var lensPosition: Double
    public var whiteBalanceGains: WhiteBalanceGains
    public var zoomFactor: Double
    public var flicker: FlickerMode
    /// Seconds between the start of one row's exposure and the next (rolling shutter).
    public var rowReadoutTime: Double
    /// The lens aperture as an f-number (EXIF FNumber).
    public var fNumber: Double
    /// The power (0…1 of full) the flash fired at during this frame's exposure, or nil when it did
    /// not fire: how a photo finds the frame its flash lit.
    public var flashPower: Double?
    /// For a raw (bayer16) frame, how its samples become linear colour; nil for processed frames.
    public var rawCalibration: RawCalibration?

    public init(exposureDuration: MediaTime, analogueGain: Double, baseISO: Double, digitalGain: Double = 1,
                exposureBias: Double = 0, lensPosition: Double = 1, whiteBalanceGains: WhiteBalanceGains = .unity,
                zoomFactor: Double = 1, flicker: FlickerMode = .off, rowReadoutTime: Double = 0, fNumber: Double = 2,
                flashPower: Double? = nil, rawCalibration: RawCalibration? = nil) {
        self.exposureDuration = exposureDuration
        self.analogueGain = analogueGain
        self.baseISO = baseISO
        self.digitalGain = digitalGain
        self.exposureBias = exposureBias
        self.lensPosition = lensPosition
        self.whiteBalanceGains = whiteBalanceGains
        self.zoomFactor = zoomFactor
        self.flicker = flicker
        self.rowReadoutTime = rowReadoutTime
        self.fNumber = fNumber
        self.flashPower = flashPower
        self.rawCalibration = rawCalibration
    }

    /// The ISO speed of the analogue gain.
    public var iso: Double { analogueGain * baseISO }

    /// Total exposure: duration × analogue gain × digital gain, in seconds at base sensitivity.
    public var totalExposure: Double { exposureDuration.seconds * analogueGain * digitalGain }

    /// The scene luminance in cd/m² that a frame of mean linear value `linearMean` implies, by
    /// the reflected-light meter equation (mid-grey 0.18 at t = K·N² / (L·S), K = 12.5).
    public func sceneLuminance(linearMean: Double) -> Double {
        12.5 * fNumber * fNumber * (linearMean / 0.18) / (exposureDuration.seconds * iso * digitalGain)
    }
}

/// Per-channel gains that turn the sensor's raw colour into neutral white.
public struct WhiteBalanceGains: Sendable, Hashable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let unity = WhiteBalanceGains(red: 1, green: 1, blue: 1)
}

/// Anti-flicker setting: mains-powered lights pulse at twice the mains frequency, so exposures
/// should be whole multiples of that period. The raw values are the names `--flicker` and
/// `/api/flicker` take.
public enum FlickerMode: String, Sendable, Hashable, CaseIterable {
    case off
    case hz50 = "50"
    case hz60 = "60"
    /// Detect the mains frequency from the image.
    case auto

    /// The light's flicker period in seconds (1/100 s for 50 Hz mains), or nil when not fixed.
    public var period: Double? {
        switch self {
        case .hz50: 1.0 / 100
        case .hz60: 1.0 / 120
        case .off, .auto: nil
        }
    }
}
