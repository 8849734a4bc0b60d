internal import CV4L2

/// A V4L2 control (`V4L2_CID_…`), with the name v4l2-ctl gives it.
public struct V4L2ControlID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority. The corresponding C constant is `V4L2_CID_EXPOSURE_AUTO`.
    public static let exposureAuto = V4L2ControlID(rawValue: cv4l2_cid_exposure_auto)
    /// The exposure time in 100 µs units. The corresponding C constant is `V4L2_CID_EXPOSURE_ABSOLUTE`.
    public static let exposureTimeAbsolute = V4L2ControlID(rawValue: cv4l2_cid_exposure_absolute)
    /// The sensor gain, in the driver's units. The corresponding C constant is `V4L2_CID_GAIN`.
    public static let gain = V4L2ControlID(rawValue: cv4l2_cid_gain)
    /// The white balance in kelvin. The corresponding C constant is `V4L2_CID_WHITE_BALANCE_TEMPERATURE`.
    public static let whiteBalanceTemperature = V4L2ControlID(rawValue: cv4l2_cid_white_balance_temperature)
    /// Automatic white balance on (1) or off. The corresponding C constant is `V4L2_CID_AUTO_WHITE_BALANCE`.
    public static let whiteBalanceAutomatic = V4L2ControlID(rawValue: cv4l2_cid_auto_white_balance)
    /// The focus position; larger values focus closer. The corresponding C constant is `V4L2_CID_FOCUS_ABSOLUTE`.
    public static let focusAbsolute = V4L2ControlID(rawValue: cv4l2_cid_focus_absolute)
    /// Continuous autofocus on (1) or off. The corresponding C constant is `V4L2_CID_FOCUS_AUTO`.
    public static let focusAuto = V4L2ControlID(rawValue: cv4l2_cid_focus_auto)
    /// The optical zoom, in the driver's units. The corresponding C constant is `V4L2_CID_ZOOM_ABSOLUTE`.
    public static let zoomAbsolute = V4L2ControlID(rawValue: cv4l2_cid_zoom_absolute)
    /// A menu: 0 off, 1 50 Hz, 2 60 Hz, 3 auto. The corresponding C constant is `V4L2_CID_POWER_LINE_FREQUENCY`.
    public static let powerLineFrequency = V4L2ControlID(rawValue: cv4l2_cid_power_line_frequency)

    /// The controls CameraSun looks for, in the order it queries them.
    public static let known: [V4L2ControlID] = [
        .exposureAuto, .exposureTimeAbsolute, .gain, .whiteBalanceTemperature, .whiteBalanceAutomatic,
        .focusAbsolute, .focusAuto, .zoomAbsolute, .powerLineFrequency,
    ]

    /// v4l2-ctl's name, e.g. "exposure_time_absolute", or the number in hex for another control.
    public var description: String {
        switch self {
        case .exposureAuto: "auto_exposure"
        case .exposureTimeAbsolute: "exposure_time_absolute"
        case .gain: "gain"
        case .whiteBalanceTemperature: "white_balance_temperature"
        case .whiteBalanceAutomatic: "white_balance_automatic"
        case .focusAbsolute: "focus_absolute"
        case .focusAuto: "focus_automatic_continuous"
        case .zoomAbsolute: "zoom_absolute"
        case .powerLineFrequency: "power_line_frequency"
        default: "0x" + String(rawValue, radix: 16)
        }
    }
}

/// The values of the menu controls CameraSun sets.
extension V4L2ControlID {
    /// `exposureAuto`'s manual mode, so CameraSun's auto-exposure sets the time and gain. The corresponding C constant is `V4L2_EXPOSURE_MANUAL`.
    public static let exposureManualMode = Int32(V4L2_EXPOSURE_MANUAL.rawValue)
    /// `exposureAuto`'s shutter priority: CameraSun sets the time, the camera the iris. The corresponding C constant is
    /// `V4L2_EXPOSURE_SHUTTER_PRIORITY`.
    public static let exposureShutterPriorityMode = Int32(V4L2_EXPOSURE_SHUTTER_PRIORITY.rawValue)
}
