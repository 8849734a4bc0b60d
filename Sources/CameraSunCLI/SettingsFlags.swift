import CameraCapture
import CameraCore
import CameraExposure
import CameraISP

/// The camera-setting flags `meter`, `photo` and `serve` share (CLI.md, "Common capture flags"):
/// tone mapping, shadows, anti-flicker, white balance, lens position and torch. Absent flags leave
/// the camera's own settings (local tone mapping, shadows 0, anti-flicker auto, auto white balance,
/// continuous autofocus, torch off).
struct SettingsFlags: Equatable {
    /// `--hdr on|off`: local tone mapping, or the plain global curve.
    var toneMapping: ToneMapping?
    /// `--shadows N`, −2…2: how far the sun-aware render lifts the shadows (`DeviceSettings.shadows`).
    var shadows: Double?
    /// `--flicker off|50|60|auto`.
    var flicker: FlickerMode?
    /// `--awb MODE` or `--awbgains R,B`.
    var whiteBalance: WhiteBalanceMode?
    /// `--lens-position P`: 0 focuses as close as the lens can, 1 at infinity.
    var lensPosition: Double?
    /// `--torch`: the torch on at full power.
    var torch = false

    /// The `--awb` modes as rpicam-apps names them: the presets are the light's colour temperature.
    static let whiteBalanceModes: [(name: String, mode: WhiteBalanceMode)] = [
        ("auto", .auto), ("incandescent", .manualTemperature(ColorTemperature(2850))),
        ("fluorescent", .manualTemperature(ColorTemperature(4000))), ("daylight", .manualTemperature(ColorTemperature(5500))),
        ("cloudy", .manualTemperature(ColorTemperature(7000))), ("locked", .locked),
    ]

    init() {}

    /// Takes the flags out of `arguments`.
    init(_ arguments: inout ArgumentList) throws(CLIError) {
        toneMapping = try arguments.hdr()
        shadows = try arguments.shadows()
        flicker = try arguments.option("flicker", expected: "off, 50, 60 or auto", FlickerMode.init(rawValue:))
        let awb = try arguments.option("awb", expected: Self.whiteBalanceModes.map(\.name).joined(separator: ", ", last: " or ")) { name in
            Self.whiteBalanceModes.first { $0.name == name }?.mode
        }
        let gains = try arguments.option("awbgains", expected: "red and blue gains such as 1.5,1.8") { text -> WhiteBalanceGains? in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let red = parts[0], let blue = parts[1], red.isFinite, blue.isFinite else { return nil }
            return WhiteBalanceGains(red: red, green: 1, blue: blue)
        }
        if awb != nil && gains != nil { throw .usage("--awb and --awbgains both set the white balance — give one of them") }
        whiteBalance = gains.map { .manualGains($0) } ?? awb
        lensPosition = try arguments.number("lens-position", in: FocusMode.lensPositionRange)
        torch = arguments.flag("torch")
    }

    /// Applies the flags to `camera` in one configuration; a value the camera cannot take is a
    /// usage error naming the flag and the camera's range.
    func apply(to camera: any CaptureDevice) throws {
        let capabilities = camera.capabilities
        do {
            if let lensPosition {
                _ = try ValueOutOfRangeError.check(lensPosition, in: capabilities.lensPosition, setting: "--lens-position")
            }
            if case .manualGains(let gains) = whiteBalance {
                var check = AutoWhiteBalance()
                do {
                    try check.setMode(.manualGains(gains))
                } catch {
                    throw ValueOutOfRangeError(setting: "--awbgains", value: error.value, range: error.range)
                }
            }
        } catch {
            throw CLIError.usage("\(error)")
        }
        if torch && !capabilities.hasTorch {
            throw CLIError.usage("--torch: \(camera.localizedName) has no torch — leave --torch out")
        }
        try camera.configure { settings in
            if let toneMapping { settings.toneMapping = toneMapping }
            if let shadows { settings.shadows = shadows }
            if let flicker { settings.flicker = flicker }
            if let whiteBalance { settings.whiteBalanceMode = whiteBalance }
            if let lensPosition { settings.focusMode = .manual(lensPosition: lensPosition) }
            if torch { settings.torchLevel = 1 }
        }
    }
}
