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

    @Test("Without flags: the command's size and pacing, the default source, seed 1, frame rates up to 30")
    func defaults() throws {
        let flags = try Self.flags([], realtime: true)
        #expect(flags.source == .defaultSpec && flags.seed == 1 && flags.realtime && flags.frameRate == nil)
        #expect(flags.format.size == PixelSize(width: 1280, height: 720) && flags.format.pixelFormat == .bgra8)
        #expect(flags.format.frameRateRanges.map(\.maximum) == [30])
    }

    @Test("Every flag is read, and a rate above 30 widens the format's range")
    func explicit() throws {
        let flags = try Self.flags(["--source", "sim:snow-sun", "--width", "640", "--height", "360", "--framerate", "60",
                                    "--seed", "7", "--no-realtime"], realtime: true)
        #expect(flags.source == .simulated("snow-sun") && flags.seed == 7 && !flags.realtime && flags.frameRate == 60)
        #expect(flags.format.size == PixelSize(width: 640, height: 360) && flags.format.frameRateRanges.map(\.maximum) == [60])
    }

    @Test("A bad value is a usage error that names the flag and the value", arguments: [["--seed", "-1"], ["--width", "0"], ["--source", "tape:x"]])
    func badValues(arguments: [String]) {
        let error = #expect(throws: CLIError.self) { try Self.flags(arguments) }
        #expect(error?.kind == .usage && error?.message.contains("\(arguments[0]) '\(arguments[1])'") == true, "\(String(describing: error))")
    }
}
