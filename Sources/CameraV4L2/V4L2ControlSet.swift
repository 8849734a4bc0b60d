import CameraCapture
import CameraCore
import CameraExposure
import CameraSystem

/// The controls a node has among those CameraSun uses (VIDIOC_QUERYCTRL), and how CameraSun's
/// sensor controls map onto them. A control the node lacks is a capability the camera lacks:
/// its range in `capabilities` is a single value, and `values(for:)` never sets it.
///
/// V4L2 gives exposure a unit (100 µs) but gain, zoom and focus none, so CameraSun takes them as:
/// gain linear from ×1 at the control's minimum to ×`maximumAnalogueGain` at its maximum; zoom
/// the control over its minimum (UVC's focal-length units); lens position 0 (nearest) at the
/// focus control's maximum and 1 (infinity) at its minimum, as larger values focus closer.
///
/// Exposure is CameraSun's when `auto_exposure` lists manual mode or, failing that, shutter
/// priority (or when the camera has no `auto_exposure`); a camera whose menu lists neither keeps
/// its own exposure, and its capabilities say it cannot be set. White balance is the camera's:
/// its frames come balanced, so CameraSun's white-balance mode maps onto `white_balance_automatic`
/// and `white_balance_temperature` (auto on for `.auto`, off for the others, the temperature set
/// for `.manualTemperature`).
public struct V4L2ControlSet: Sendable, Hashable {
    /// The ranges of the controls the node has, by control.
    public let ranges: [V4L2ControlID: V4L2ControlRange]

    /// The analogue gain of a gain control at its maximum.
    public static let maximumAnalogueGain = 16.0
    /// Steps of `exposure_time_absolute` in a second: its unit is 100 µs.
    public static let exposureStepsPerSecond = 10_000.0
    /// The ISO CameraSun reports at gain ×1: V4L2 does not say, so a nominal value.
    public static let baseISO = 100.0
    /// The exposure time, in seconds, of a camera without `exposure_time_absolute`.
    public static let fixedExposureDuration = 1.0 / 30

    public init(ranges: [V4L2ControlID: V4L2ControlRange]) {
        self.ranges = ranges
    }

    /// Queries every control in `V4L2ControlID.known` and the entries of each menu among them;
    /// EINVAL (the node lacks it) and a disabled control leave it out, as EINVAL leaves out a menu
    /// entry.
    static func discover(on node: any V4L2Node) throws(CaptureError) -> V4L2ControlSet {
        var ranges: [V4L2ControlID: V4L2ControlRange] = [:]
        for id in V4L2ControlID.known {
            guard var range = try unlessAbsent({ () throws(SystemCallError) in try node.queryControl(id) }), !range.isDisabled else { continue }
            if range.menu != nil {
                var entries: [Int32] = []
                for index in range.minimum...range.maximum
                where try unlessAbsent({ () throws(SystemCallError) in try node.menuEntry(id, at: index) }) != nil {
                    entries.append(index)
                }
                range.menu = entries
            }
            ranges[id] = range
        }
        return V4L2ControlSet(ranges: ranges)
    }

    /// The `auto_exposure` entry that leaves the exposure time to CameraSun: manual, else shutter
    /// priority, among those the menu lists; nil when it lists neither or there is no such control.
    var exposureMode: Int32? {
        guard let range = ranges[.exposureAuto] else { return nil }
        return [V4L2ControlID.exposureManualMode, V4L2ControlID.exposureShutterPriorityMode].first { range.offers($0) }
    }

    /// The exposure time control, when CameraSun can set it.
    private var exposureTime: V4L2ControlRange? {
        ranges[.exposureAuto] == nil || exposureMode != nil ? ranges[.exposureTimeAbsolute] : nil
    }

    /// The sensor and lens controls' ranges, with CameraSun's own exposure bias, and the steps
    /// exposure time and gain are set in: a bracket's exposures land on them, so that its frames'
    /// metadata (the values the controls took) shows the exposures it holds.
    public var capabilities: DeviceCapabilities {
        let exposure = exposureTime.map {
            (Double(max($0.minimum, 1)) / Self.exposureStepsPerSecond)...(Double($0.maximum) / Self.exposureStepsPerSecond)
        }
        let gainStep = ranges[.gain].map { $0.maximum > $0.minimum ? Double($0.step) * (Self.maximumAnalogueGain - 1) / Double($0.maximum - $0.minimum) : 0 }
        return DeviceCapabilities(
            exposureDuration: exposure ?? Self.fixedExposureDuration...Self.fixedExposureDuration,
            analogueGain: ranges[.gain].map { $0.maximum > $0.minimum ? 1...Self.maximumAnalogueGain : 1...1 } ?? 1...1,
            baseISO: Self.baseISO, exposureBias: -4...4,
            zoomFactor: zoomRange.map { 1...(Double($0.maximum) / Double($0.minimum)) } ?? 1...1,
            lensPosition: ranges[.focusAbsolute].map { $0.maximum > $0.minimum ? 0...1 : 1...1 } ?? 1...1,
            hasTorch: false, hasFlash: false,
            exposureDurationStep: exposureTime.map { Double($0.step) / Self.exposureStepsPerSecond } ?? 0, analogueGainStep: gainStep ?? 0)
    }

    /// The zoom control, when its units allow a factor (a positive minimum).
    private var zoomRange: V4L2ControlRange? { ranges[.zoomAbsolute].flatMap { $0.minimum > 0 ? $0 : nil } }

    /// The modes set when a stream starts, so that CameraSun's 3A drives the sensor and lens:
    /// `exposureMode`, and autofocus off when the lens can be positioned.
    var manualModes: [(V4L2ControlID, Int32)] {
        var modes: [(V4L2ControlID, Int32)] = []
        if let exposureMode { modes.append((.exposureAuto, exposureMode)) }
        if ranges[.focusAuto] != nil, ranges[.focusAbsolute] != nil { modes.append((.focusAuto, 0)) }
        return modes
    }

    /// The controls CameraSun sets each frame and reads back at the start of a stream, in the
    /// order they are set (white balance's auto before its temperature, which auto locks).
    var driven: [V4L2ControlID] {
        let others: [V4L2ControlID] = [.gain, .focusAbsolute, .zoomAbsolute, .powerLineFrequency, .whiteBalanceAutomatic, .whiteBalanceTemperature]
        return (exposureTime.map { [$0.id] } ?? []) + others.filter { ranges[$0] != nil }
    }

    /// The control values that carry out `controls` and `whiteBalance` (each the nearest value
    /// the control allows, a menu entry only when listed), for the controls the node has; a
    /// control set to a value in `current` stays there while the value asked is within a step.
    func values(for controls: SensorControls, whiteBalance: WhiteBalanceMode,
                holding current: [V4L2ControlID: Int32]) -> [V4L2ControlID: Int32] {
        var values: [V4L2ControlID: Int32] = [:]
        if let range = exposureTime {
            values[.exposureTimeAbsolute] = range.nearest(controls.exposureDuration * Self.exposureStepsPerSecond,
                                                          holding: current[.exposureTimeAbsolute])
        }
        if let range = ranges[.gain], range.maximum > range.minimum {
            let fraction = (controls.analogueGain - 1) / (Self.maximumAnalogueGain - 1)
            values[.gain] = range.nearest(Double(range.minimum) + fraction * Double(range.maximum - range.minimum), holding: current[.gain])
        }
        if let range = ranges[.focusAbsolute] {
            values[.focusAbsolute] = range.nearest(Double(range.maximum) - controls.lensPosition * Double(range.maximum - range.minimum),
                                                   holding: current[.focusAbsolute])
        }
        if let range = zoomRange {
            values[.zoomAbsolute] = range.nearest(controls.zoomFactor * Double(range.minimum), holding: current[.zoomAbsolute])
        }
        if let range = ranges[.powerLineFrequency], let mode = Self.powerLineMode(controls.flicker), range.offers(mode) {
            values[.powerLineFrequency] = mode
        }
        if ranges[.whiteBalanceAutomatic] != nil { values[.whiteBalanceAutomatic] = whiteBalance == .auto ? 1 : 0 }
        if let range = ranges[.whiteBalanceTemperature], case .manualTemperature(let temperature) = whiteBalance {
            values[.whiteBalanceTemperature] = range.nearest(temperature.kelvin, holding: current[.whiteBalanceTemperature])
        }
        return values
    }

    /// `power_line_frequency`'s menu entry for a flicker mode; nil for auto, which CameraSun
    /// detects from the frames itself.
    private static func powerLineMode(_ flicker: FlickerMode) -> Int32? {
        switch flicker {
        case .off: 0
        case .hz50: 1
        case .hz60: 2
        case .auto: nil
        }
    }

    /// What frames are made with when the driven controls hold `values`: a frame's metadata.
    func metadata(_ values: [V4L2ControlID: Int32], flicker: FlickerMode) -> FrameMetadata {
        let duration = values[.exposureTimeAbsolute].map { MediaTime(value: Int64($0), timescale: Int32(Self.exposureStepsPerSecond)) }
            ?? MediaTime(seconds: Self.fixedExposureDuration, preferredTimescale: 30)
        var gain = 1.0
        if let range = ranges[.gain], let value = values[.gain], range.maximum > range.minimum {
            gain = 1 + Double(value - range.minimum) * (Self.maximumAnalogueGain - 1) / Double(range.maximum - range.minimum)
        }
        var lensPosition = 1.0
        if let range = ranges[.focusAbsolute], let value = values[.focusAbsolute], range.maximum > range.minimum {
            lensPosition = Double(range.maximum - value) / Double(range.maximum - range.minimum)
        }
        let zoom = zoomRange.flatMap { range in values[.zoomAbsolute].map { Double($0) / Double(range.minimum) } } ?? 1
        return FrameMetadata(exposureDuration: duration, analogueGain: gain,
                             baseISO: Self.baseISO, lensPosition: lensPosition, zoomFactor: zoom, flicker: flicker)
    }
}
