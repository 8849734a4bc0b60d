import CameraCapture
import CameraCore
import CameraSimulated
@testable import CameraSunCLI
import Foundation
import Testing

@Suite("SourceSpec: --source values")
struct SourceSpecTests {
    @Test("Each source kind parses with its payload", arguments: [
        ("sim:backlit-portrait", SourceSpec.simulated("backlit-portrait")),
        ("sim:hdr=sky.hdr,yaw=30", .simulated("hdr=sky.hdr,yaw=30")),
        ("sim:gray-card,syncmarks", .simulated("gray-card", syncMarks: true)),
        ("sim:hdr=sky.hdr,syncmarks,yaw=30", .simulated("hdr=sky.hdr,yaw=30", syncMarks: true)),
        ("v4l2:/dev/video0", .v4l2("/dev/video0")),
        ("file:x.mp4", .file("x.mp4")),
        ("file:C:/videos/a:b.mp4", .file("C:/videos/a:b.mp4")),
    ])
    func parses(text: String, expected: SourceSpec) throws {
        let parsed = try SourceSpec(parsing: text)
        #expect(parsed == expected)
    }

    @Test("The default source is the simulated backlit portrait, without sync marks")
    func defaultSource() {
        #expect(SourceSpec.defaultSpec == .simulated("backlit-portrait"))
        #expect(!SourceSpec.defaultSpec.syncMarks && (try? SourceSpec(parsing: "sim:gray-card"))?.syncMarks == false)
    }

    @Test("syncmarks alone names no scene: a usage error showing the form")
    func syncMarksWithoutScene() {
        let error = cliError { try SourceSpec(parsing: "sim:syncmarks") }
        #expect(error == .usage("--source 'sim:syncmarks' names no scene — use sim:SCENE,syncmarks"))
    }

    @Test("An unknown kind is a usage error naming the kind", arguments: ["usb:0", "SIM:gray-card", "http://camera"])
    func unknownKind(text: String) throws {
        let error = cliError { try SourceSpec(parsing: text) }
        let kind = try #require(text.split(separator: ":").first)
        #expect(error?.kind == .usage)
        #expect(error?.message == "--source '\(text)' has an unknown kind '\(kind)' — use sim:, v4l2: or file:")
    }

    @Test("Text that is not KIND:VALUE is a usage error listing the forms", arguments: ["", "sim", "sim:", ":gray-card", "gray-card"])
    func notASource(text: String) {
        let error = cliError { try SourceSpec(parsing: text) }
        #expect(error == .usage("--source '\(text)' is not a source — use sim:SCENE, sim:hdr=FILE, v4l2:/dev/videoN or file:PATH"))
    }

    @Test("A scene is found by name, and its spec's errors keep their kind: a bad value is a usage error, a missing file a runtime one")
    func sceneErrorsKeepTheirKind() {
        #expect((try? SourceSpec.scene("gray-card"))?.name == "gray-card")
        #expect(cliError { try SourceSpec.scene("hdr=sky.hdr,fov=171") }
            == .usage("fov 171.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).hdr").path
        let missing = cliError { try SourceSpec.scene("hdr=\(path)") }
        #expect(missing?.kind == .runtime && missing?.exitCode == 1)
        #expect(missing?.message.contains(path) == true)
    }

    @Test("A V4L2 node that is not there is an error naming it and what to do")
    func missingV4L2Node() {
        let path = "/dev/video-\(UUID().uuidString)"
        #expect {
            _ = try SourceSpec.v4l2(path).openCamera(request: FormatRequest(), seed: 1, pacing: .virtual)
        } throws: { error in
            "\(error)".contains("there is no \(path)") && "\(error)".contains("plug the camera in or check the path")
        }
    }
}
