import CameraCapture
import CameraCore
import CameraMetering
import CameraSimulated
import CameraStills
@testable import CameraSunCLI
import Testing

@Suite("photo flags")
struct PhotoOptionsTests {
    private static func options(_ arguments: [String]) throws -> PhotoOptions {
        try PhotoOptions(parsing: ArgumentList(arguments, command: "photo"))
    }

    @Test("Without flags: one photo of 1920x1080 at quality 90, zero shutter lag, sun-aware auto-exposure")
    func defaults() throws {
        let options = try Self.options([])
        #expect(options.count == 1 && options.quality == 90 && options.zeroShutterLag && !options.json && !options.capture.realtime)
        #expect(options.capture.request.size == PixelSize(width: 1920, height: 1080) && options.capture.request.pixelFormat == .bayer16(.rggb, significantBits: 12))
        #expect(options.capture.source == .defaultSpec)
        let settings = try options.cameraSettings(within: SimulatedCamera.standardCapabilities)
        #expect(settings.exposureMode == .continuousAuto && settings.bias == 0 && settings.metering == .sunAware)
        let photo = options.photoSettings()
        #expect(photo.format == .jpeg(quality: 90) && photo.zeroShutterLag && photo.flashMode == .off)
        #expect(photo.uniqueID != options.photoSettings().uniqueID, "every request gets fresh settings")
    }

    @Test("--shutter with --gain or --iso is a fixed exposure; --shutter alone takes gain 1",
          arguments: [(["--shutter", "1/250", "--gain", "2"], 2.0), (["--shutter", "4ms", "--iso", "400"], 8.0), (["--shutter", "4000"], 1.0)])
    func fixedExposure(arguments: [String], gain: Double) throws {
        let settings = try Self.options(arguments).cameraSettings(within: SimulatedCamera.standardCapabilities)
        #expect(settings.exposureMode == .custom(duration: 0.004, gain: gain))
    }

    @Test("--quality, --count, --no-zsl, --ev and --metering reach the photo and camera settings")
    func choices() throws {
        let options = try Self.options(["--quality", "75", "--count", "12", "--no-zsl", "--ev", "-1.5", "--metering", "spot@0.2,0.7"])
        #expect(options.count == 12)
        let photo = options.photoSettings()
        #expect(photo.format == .jpeg(quality: 75) && !photo.zeroShutterLag)
        let settings = try options.cameraSettings(within: SimulatedCamera.standardCapabilities)
        #expect(settings.bias == -1.5)
        #expect(settings.metering == .spot(NormalizedPoint(x: 0.2, y: 0.7), radius: MeteringMode.defaultSpotRadius))
    }

    @Test("--raw makes every request a RAW + JPEG pair; without it, a JPEG")
    func raw() throws {
        #expect(try Self.options(["--raw"]).photoSettings().raw)
        #expect(try !Self.options([]).photoSettings().raw)
    }

    @Test("--bracket reaches every request's settings as its EV offsets")
    func bracket() throws {
        #expect(try Self.options(["--bracket", "-2,0,2"]).photoSettings().bracket == [-2, 0, 2])
        #expect(try Self.options([]).photoSettings().bracket == nil)
    }

    @Test("--bracket-frames keeps each frame of every request's bracket")
    func bracketFrames() throws {
        #expect(try Self.options(["--bracket", "-2,0,2", "--bracket-frames"]).photoSettings().keepsBracketFrames)
        #expect(try !Self.options(["--bracket", "-2,0,2"]).photoSettings().keepsBracketFrames)
    }

    @Test("a bracket that is not 2…5 different numbers, or with the flash, or its frames without it, is a usage error naming it",
          arguments: [(["--bracket", "0"], "a bracket of 1 frame"), (["--bracket", "-2,x,2"], "EV offsets separated by commas"),
                      (["--bracket", "0,0,1"], "give different EV offsets within -32…+32"),
                      (["--bracket", "1e300,0"], "bracket offsets 1e+300,0 — give different EV offsets within -32…+32"), (["--bracket", "-2,0,2", "--flash", "on"], "without the flash"),
                      (["--bracket-frames"], "give --bracket too")])
    func badBracket(arguments: [String], message: String) {
        let error = #expect(throws: CLIError.self) { _ = try Self.options(arguments) }
        #expect(error.map { "\($0)" }?.contains(message) == true, "\(String(describing: error))")
    }

    @Test("--flash reaches every request's settings", arguments: PhotoSettings.FlashMode.allCases)
    func flash(mode: PhotoSettings.FlashMode) throws {
        #expect(try Self.options(["--flash", mode.rawValue]).photoSettings().flashMode == mode)
        #expect(try Self.options(["--flash=\(mode.rawValue)"]).photoSettings().flashMode == mode)
    }

    @Test("A --flash value other than off, on or auto is a usage error naming it", arguments: ["bright", "ON", ""])
    func badFlash(value: String) {
        let error = #expect(throws: CLIError.self) { try Self.options(["--flash", value]) }
        #expect(error?.kind == .usage && error?.message.contains("--flash '\(value)' is not off, on or auto") == true,
                "\(String(describing: error))")
    }

    @Test("The free-space estimate per pixel holds the noisiest scene, more above quality 90",
          arguments: [(50, 0.6), (90, 0.6), (95, 1.05), (100, 1.5)])
    func estimate(quality: Int, bytesPerPixel: Double) {
        #expect(abs(PhotoOptions.estimatedBytesPerPixel(quality: quality) - bytesPerPixel) < 1e-12)
    }

    @Test("Metering modes are recorded under the names --metering takes", arguments: [
        (MeteringMode.sunAware, "sun"), (.average, "average"), (.centerWeighted, "centre"), (.matrix, "matrix"),
        (.spot(NormalizedPoint(x: 0.25, y: 0.75), radius: 0.05), "spot@0.25,0.75"),
    ])
    func meteringNames(mode: MeteringMode, name: String) {
        #expect(mode.commandLineName == name)
        #expect(MeteringMode(parsing: name).map { $0.commandLineName } == name, "the name parses back")
    }
}
