import CameraCapture
import CameraCore
import CameraSimulated
@testable import CameraSunCLI
import Foundation
import Testing

@Suite("SourceSpec: --source values and scene specs")
struct SourceSpecTests {
    @Test("Each source kind parses with its payload", arguments: [
        ("sim:backlit-portrait", SourceSpec.simulated("backlit-portrait")),
        ("sim:hdr=sky.hdr,yaw=30", .simulated("hdr=sky.hdr,yaw=30")),
        ("v4l2:/dev/video0", .v4l2("/dev/video0")),
        ("file:x.mp4", .file("x.mp4")),
        ("file:C:/videos/a:b.mp4", .file("C:/videos/a:b.mp4")),
    ])
    func parses(text: String, expected: SourceSpec) throws {
        let parsed = try SourceSpec(parsing: text)
        #expect(parsed == expected)
    }

    @Test("The default source is the simulated backlit portrait")
    func defaultSource() {
        #expect(SourceSpec.defaultSpec == .simulated("backlit-portrait"))
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

    @Test("Built-in scenes are found by name", arguments: SimulatedScene.builtIn.map(\.name))
    func builtInScene(name: String) throws {
        let scene = try SourceSpec.scene(name)
        #expect(scene.name == name)
    }

    @Test("An unknown scene is a usage error that lists every built-in name")
    func unknownScene() {
        let error = cliError { try SourceSpec.scene("nope") }
        #expect(error?.kind == .usage)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("unknown scene 'nope' — "))
        for name in ["gray-card", "backlit-portrait", "snow-sun", "window-interior", "night-street", "step-change",
                     "flicker-office", "pan-into-sun", "hdr=FILE"] {
            #expect(message.contains(name), "missing \(name) in: \(message)")
        }
    }

    @Test("sim:hdr= options are checked before the file is read", arguments: [
        ("hdr=sky.hdr,pitch=91", "pitch 91.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,pitch=-90.5", "pitch -90.5 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,fov=0.5", "fov 0.5 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,fov=171", "fov 171.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,roll=3", "unknown sim:hdr= option 'roll' — use yaw=, pitch=, fov= or pan="),
        ("hdr=sky.hdr,yaw=east", "'yaw=east' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG or pan=DEG"),
        ("hdr=sky.hdr,yaw", "'yaw' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG or pan=DEG"),
        ("hdr=sky.hdr,yaw=inf", "'yaw=inf' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG or pan=DEG"),
        ("hdr=sky.hdr,pan=0", "pan 0.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,pan=400", "pan 400.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=", "sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30"),
        ("hdr=,yaw=30", "sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30"),
    ])
    func hdrOptionErrors(spec: String, message: String) {
        let error = cliError { try SourceSpec.scene(spec) }
        #expect(error == .usage(message))
    }

    @Test("Along a pan the subject is a band across the frame: any other rectangle is a usage error naming it")
    func panSubjectIsABand() {
        let error = cliError { try SourceSpec.hdrScene("sky.hdr,pan=40", subject: NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)) }
        #expect(error == .usage("along a pan the subject is a band the camera turns along — give x=0 and w=1, not 0.25,0.5,0.5,0.5"))
    }

    @Test("A missing .hdr file is a runtime error naming the path")
    func missingHDRFile() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).hdr").path
        let error = cliError { try SourceSpec.scene("hdr=\(path),yaw=10,pitch=-90,fov=170") }
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains(path) == true)
    }

    @Test("Sources without a back-end fail at run time with a message naming them", arguments: [
        (SourceSpec.v4l2("/dev/video0"), "v4l2:/dev/video0"),
        (.file("clip.mp4"), "file:clip.mp4"),
    ])
    func unsupportedSources(source: SourceSpec, named: String) {
        let error = cliError {
            _ = try source.openCamera(request: FormatRequest(), seed: 1, pacing: .virtual)
        }
        #expect(error?.kind == .runtime)
        #expect(error?.message.hasPrefix("cannot open \(named): ") == true)
        #expect(error?.message.contains(" — use --source sim:SCENE") == true)
    }
}
