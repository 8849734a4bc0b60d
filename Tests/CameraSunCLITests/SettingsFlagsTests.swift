import CameraCapture
import CameraCore
import CameraExposure
import CameraISP
@testable import CameraSunCLI
import Foundation
import Testing

@Suite("Camera-setting flags")
struct SettingsFlagsTests {
    private static func flags(_ arguments: [String]) throws -> SettingsFlags {
        var list = ArgumentList(arguments, command: "meter")
        let flags = try SettingsFlags(&list)
        try list.finish()
        return flags
    }

    /// A small simulated camera with `arguments` applied.
    private static func camera(_ arguments: [String]) throws -> any CaptureDevice {
        var list = ArgumentList(arguments + ["--width", "64", "--height", "36"], command: "meter")
        let flags = try CaptureFlags(&list, size: PixelSize(width: 64, height: 36), realtime: false)
        try list.finish()
        return try flags.openCamera().device
    }

    @Test("Without flags the camera keeps its own settings: anti-flicker auto, auto white balance, continuous focus, no torch")
    func defaults() throws {
        #expect(try Self.flags([]) == SettingsFlags())
        let settings = try Self.camera([]).settings
        #expect(settings.flicker == .auto && settings.whiteBalanceMode == .auto && settings.focusMode == .continuous && settings.torchLevel == 0)
        #expect(settings.toneMapping == .local, "HDR is on by default")
    }

    @Test("--hdr on tone-maps locally, --hdr off with the plain global curve", arguments: [("on", ToneMapping.local), ("off", .global)])
    func hdr(name: String, mode: ToneMapping) throws {
        #expect(try Self.camera(["--hdr", name]).settings.toneMapping == mode)
    }

    @Test("--flicker takes off, 50, 60 and auto", arguments: [("off", FlickerMode.off), ("50", .hz50), ("60", .hz60), ("auto", .auto)])
    func flicker(name: String, mode: FlickerMode) throws {
        #expect(try Self.camera(["--flicker", name]).settings.flicker == mode)
    }

    @Test("--awb presets are the light's colour temperature; --awbgains sets red and blue against green")
    func whiteBalance() throws {
        #expect(try Self.camera(["--awb", "daylight"]).settings.whiteBalanceMode == .manualTemperature(ColorTemperature(5500)))
        #expect(try Self.camera(["--awb", "locked"]).settings.whiteBalanceMode == .locked)
        #expect(try Self.camera(["--awbgains", "1.5,2"]).settings.whiteBalanceMode
            == .manualGains(WhiteBalanceGains(red: 1.5, green: 1, blue: 2)))
    }

    @Test("--lens-position holds the lens there; --torch turns the torch on")
    func lensAndTorch() throws {
        let settings = try Self.camera(["--lens-position", "0.25", "--torch"]).settings
        #expect(settings.focusMode == .manual(lensPosition: 0.25) && settings.torchLevel == 1)
    }

    @Test("--shadows sets the shadows control; without it the camera keeps 0", arguments: [("1.5", 1.5), ("-2", -2.0), ("2", 2.0)])
    func shadows(value: String, expected: Double) throws {
        #expect(try Self.camera(["--shadows", value]).settings.shadows == expected)
        #expect(try Self.camera([]).settings.shadows == 0)
    }

    @Test("A bad value is a usage error naming the flag", arguments: [
        (["--flicker", "100"], "--flicker '100' is not off, 50, 60 or auto"),
        (["--hdr", "yes"], "--hdr 'yes' is not on or off"),
        (["--awb", "tungsten"], "--awb 'tungsten' is not auto, incandescent, fluorescent, daylight, cloudy or locked"),
        (["--awbgains", "1.5"], "--awbgains '1.5' is not red and blue gains"),
        (["--awb", "auto", "--awbgains", "1,1"], "--awb and --awbgains both set the white balance"),
        (["--lens-position", "2"], "--lens-position 2 is outside the supported range 0…1"),
        (["--awbgains", "0.5,1"], "--awbgains 0.5 is outside the supported range 1…"),
        (["--shadows", "3"], "--shadows 3 is outside the supported range -2…2 — choose a value in that range"),
        (["--shadows", "dark"], "--shadows 'dark' is not a number"),
    ])
    func badValues(arguments: [String], message: String) {
        let error = cliError { try Self.camera(arguments) }
        #expect(error?.kind == .usage && error?.message.contains(message) == true, "\(String(describing: error))")
    }
}

@Suite("Anti-flicker end to end")
struct AntiFlickerEndToEndTests {
    /// The exposure times `meter` reports for `frames` frames of flicker-office.
    private static func exposures(_ extra: [String], frames: Int = 60) async throws -> [Double] {
        let result = try await CameraSunBinary.run(["meter", "--source", "sim:flicker-office", "--frames", "\(frames)", "--width", "96",
                                                    "--height", "120", "--json"] + extra)
        #expect(result.exitCode == 0, "\(result)")
        return try result.stdoutLines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(jsonNumber(object["exposureTime"]))
        }
    }

    @Test("By default the office light's 100 Hz flicker is seen and the exposure settles on whole 10 ms periods")
    func autoByDefault() async throws {
        let settled = try await #require(try Self.exposures([]).last)
        let periods = settled * 100
        #expect(periods >= 1 && abs(periods - periods.rounded()) < 1e-3, "settled at \(settled) s")
    }

    @Test("With --flicker off it settles where the light alone puts it, between whole periods")
    func offKeepsTheMeteredExposure() async throws {
        let settled = try await #require(try Self.exposures(["--flicker", "off"]).last)
        let periods = settled * 100
        #expect(abs(periods - periods.rounded()) > 0.05, "settled at \(settled) s")
    }
}
