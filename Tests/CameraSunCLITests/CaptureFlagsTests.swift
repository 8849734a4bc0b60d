import CameraCapture
import CameraCore
@testable import CameraSunCLI
import Testing

@Suite("Common capture flags")
struct CaptureFlagsTests {
    private static func flags(_ arguments: [String], realtime: Bool = false) throws -> CaptureFlags {
        var list = ArgumentList(arguments, command: "meter")
        let flags = try CaptureFlags(&list, size: PixelSize(width: 1280, height: 720), realtime: realtime)
        try list.finish()
        return flags
    }

    @Test("Without flags: the command's size at 30 fps, raw from the default (simulated) source, seed 1")
    func defaults() throws {
        let flags = try Self.flags([], realtime: true)
        #expect(flags.source == .defaultSpec && flags.seed == 1 && flags.realtime)
        #expect(flags.request == FormatRequest(size: PixelSize(width: 1280, height: 720), frameRate: 30, pixelFormat: Self.raw))
    }

    /// What the simulated camera is asked for: raw, for CameraSun's image pipeline to render.
    static let raw = PixelFormat.bayer16(.rggb, significantBits: 12)

    @Test("Cameras that are not simulated are asked for any pixel format (they deliver their own processed pictures)",
          arguments: ["file:take.mp4", "v4l2:/dev/video9"])
    func processedSources(source: String) throws {
        let flags = try Self.flags(["--source", source], realtime: true)
        #expect(flags.request.pixelFormat == nil)
        #expect(flags.request.size == PixelSize(width: 1280, height: 720))
    }

    @Test("Every flag is read")
    func explicit() throws {
        let flags = try Self.flags(["--source", "sim:snow-sun", "--width", "640", "--height", "360", "--framerate", "60",
                                    "--seed", "7", "--no-realtime"], realtime: true)
        #expect(flags.source == .simulated("snow-sun") && flags.seed == 7 && !flags.realtime)
        #expect(flags.request == FormatRequest(size: PixelSize(width: 640, height: 360), frameRate: 60, pixelFormat: Self.raw))
    }

    @Test("A bad value is a usage error that names the flag and the value",
          arguments: [["--seed", "-1"], ["--width", "0"], ["--source", "tape:x"], ["--framerate", "0"], ["--framerate", "1e309"],
                      ["--framerate", "nan"]])
    func badValues(arguments: [String]) {
        let error = #expect(throws: CLIError.self) { try Self.flags(arguments) }
        #expect(error?.kind == .usage && error?.message.contains(arguments[0]) == true && error?.message.contains(arguments[1]) == true,
                "\(String(describing: error))")
    }

    @Test("A frame rate beyond what the camera delivers at any size is a usage error naming its range",
          arguments: ["2147483647", "1e7", "1e308", "500", "0.5"])
    func rateOutsideTheCamera(rate: String) {
        let error = #expect(throws: CLIError.self) { try Self.flags(["--framerate", rate]).openCamera() }
        #expect(error?.kind == .usage, "\(String(describing: error))")
        #expect(error?.message.contains("--framerate") == true && error?.message.contains("1…120 fps") == true, "\(String(describing: error))")
    }

    @Test("The format goes through format selection: a small size runs at most at the rate of the mode it is scaled from")
    func smallSizeKeepsItsModesRate() throws {
        let opened = try Self.flags(["--width", "100", "--height", "100", "--framerate", "120"]).openCamera()
        #expect(opened.device.activeFormat.size == PixelSize(width: 100, height: 100))
        #expect(opened.device.settings.frameRate == 120 && opened.format.fallbackReason == nil)
        let error = #expect(throws: CLIError.self) { try Self.flags(["--width", "100", "--height", "100", "--framerate", "500"]).openCamera() }
        #expect(error?.message.contains("1…120 fps") == true)
    }

    @Test("A rate the size cannot run at falls back to the nearest rate there, and says why")
    func fallbackIsExplained() throws {
        let opened = try Self.flags(["--width", "1920", "--height", "1080", "--framerate", "120"]).openCamera()
        #expect(opened.device.settings.frameRate == 60)
        #expect(opened.fallbackNote == "camerasun: note: 120 fps is not available at 1920x1080 (up to 60 fps); using 60 fps")
    }

    @Test("A size larger than every mode falls back to the nearest mode")
    func oversizeFallsBack() throws {
        let opened = try Self.flags(["--width", "8000", "--height", "6000"]).openCamera()
        #expect(opened.device.activeFormat.size == PixelSize(width: 3840, height: 2160))
        #expect(opened.format.fallbackReason?.contains("8000x6000 is not available") == true)
    }
}
