import CameraCapture
@testable import CameraSunCLI
import Testing

@Suite("--source2: a second camera, SPEC[,position=front|back]")
struct SecondSourceTests {
    @Test("A source and where it faces: a simulated one faces the front unless told", arguments: [
        ("sim:gray-card", SourceSpec.simulated("gray-card"), DevicePosition.front),
        ("sim:gray-card,position=front", .simulated("gray-card"), .front),
        ("sim:gray-card,position=back", .simulated("gray-card"), .back),
        ("sim:hdr=sky.hdr,yaw=30,position=front", .simulated("hdr=sky.hdr,yaw=30"), .front),
        ("v4l2:/dev/video1", .v4l2("/dev/video1"), .unspecified),
    ])
    func parses(text: String, source: SourceSpec, position: DevicePosition) throws {
        let parsed = try SecondSource(parsing: text)
        #expect(parsed.source == source && parsed.position == position)
    }

    @Test("Bad values are usage errors naming the value and what to do", arguments: [
        ("sim:gray-card,position=side", "--source2 'sim:gray-card,position=side': position 'side' is not front or back — use position=front or position=back"),
        ("sim:gray-card,position=", "--source2 'sim:gray-card,position=': position '' is not front or back — use position=front or position=back"),
        ("usb:0", "--source2 'usb:0' has an unknown kind 'usb' — use sim:, v4l2: or file:"),
        ("position=front", "--source2 'position=front' is not a source — use sim:SCENE, sim:hdr=FILE, v4l2:/dev/videoN or file:PATH"),
        ("v4l2:/dev/video1,position=front", "--source2 'v4l2:/dev/video1,position=front': position= sets where a simulated camera faces — "
            + "a v4l2: or file: source says it itself; leave position= out"),
    ])
    func badValues(text: String, message: String) {
        #expect(cliError { try SecondSource(parsing: text) } == .usage(message))
    }
}

@Suite("serve --source2 refusals: usage errors before serving")
struct SecondSourceUsageTests {
    @Test("A second camera facing the way the first does, an unknown scene or a bad position is a usage error (exit 2) naming it",
          arguments: [
              (["--source2", "sim:gray-card,position=back"], "sim:backlit-portrait faces back and sim:gray-card back — pair a back camera with a front one"),
              (["--source2", "sim:no-such-scene"], "no-such-scene"),
              (["--source2", "sim:gray-card,position=up"], "position 'up' is not front or back"),
          ])
    func refused(arguments: [String], mentions: String) async throws {
        let result = try await CameraSunBinary.run(["serve", "--width", "160", "--height", "90", "--listen", "127.0.0.1:0"] + arguments)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.hasPrefix("camerasun: error: ") && result.stderr.contains(mentions), "\(result)")
    }

    @Test("Only serve takes --source2")
    func onlyServe() async throws {
        let result = try await CameraSunBinary.run(["meter", "--frames", "1", "--source2", "sim:gray-card"])
        #expect(result.exitCode == 2 && result.stderr.contains("--source2"), "\(result)")
    }
}
