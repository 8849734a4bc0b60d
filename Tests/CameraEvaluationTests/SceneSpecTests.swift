import CameraCodecs
import CameraCore
@testable import CameraEvaluation
import CameraSimulated
import Foundation
import Testing

@Suite("SceneSpec: built-in scene names and hdr= specs")
struct SceneSpecTests {
    @Test("Built-in scenes are found by name", arguments: SimulatedScene.builtIn.map(\.name))
    func builtInScene(name: String) throws {
        let scene = try SceneSpec.scene(name)
        #expect(scene.name == name)
    }

    @Test("An unknown scene is an invalid input that lists every built-in name")
    func unknownScene() {
        let error = evaluationError { try SceneSpec.scene("nope") }
        #expect(error?.kind == .invalidInput)
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
        ("hdr=sky.hdr,roll=3", "unknown sim:hdr= option 'roll' — use yaw=, pitch=, fov=, pan= or median="),
        ("hdr=sky.hdr,yaw=east", "'yaw=east' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG, pan=DEG or median=CD"),
        ("hdr=sky.hdr,yaw", "'yaw' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG, pan=DEG or median=CD"),
        ("hdr=sky.hdr,yaw=inf", "'yaw=inf' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG, pan=DEG or median=CD"),
        ("hdr=sky.hdr,median=0", "median 0.0 is out of range — give the image's median luminance in cd/m², 0.01…100000: about 1 at dusk, 1000 in daylight"),
        ("hdr=sky.hdr,pan=0", "pan 0.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=sky.hdr,pan=400", "pan 400.0 is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees"),
        ("hdr=", "sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30"),
        ("hdr=,yaw=30", "sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30"),
    ])
    func hdrOptionErrors(spec: String, message: String) {
        let error = evaluationError { try SceneSpec.scene(spec) }
        #expect(error == .invalidInput(message))
    }

    @Test("Along a pan the subject is a band across the frame: any other rectangle is an invalid input naming it")
    func panSubjectIsABand() {
        let error = evaluationError { try SceneSpec.hdrScene("sky.hdr,pan=40", subject: NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)) }
        #expect(error == .invalidInput("along a pan the subject is a band the camera turns along — give x=0 and w=1, not 0.25,0.5,0.5,0.5"))
    }

    @Test("A missing .hdr file is unreadable, the error naming the path")
    func missingHDRFile() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).hdr").path
        let error = evaluationError { try SceneSpec.scene("hdr=\(path),yaw=10,pitch=-90,fov=170") }
        #expect(error?.kind == .unreadable)
        #expect(error?.message.contains(path) == true)
    }

    @Test("median=CD sets the image's median luminance: a dusk view is dim, and the scene's name says so")
    func medianLuminance() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("median-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = RadianceImage(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { image[x, y] = SIMD3(repeating: x < 32 ? 0.5 : 2) } }
        let path = directory.appendingPathComponent("dusk.hdr").path
        try RadianceHDREncoder().encode(image).write(to: URL(fileURLWithPath: path))
        let size = PixelSize(width: 64, height: 48)
        let daylight = try SceneSpec.scene("hdr=\(path)").render(viewSize: size)
        let dusk = try SceneSpec.scene("hdr=\(path),median=2").render(viewSize: size)
        #expect(try SceneSpec.scene("hdr=\(path),median=2").name == "hdr:dusk.hdr,median=2")
        #expect(try SceneSpec.scene("hdr=\(path)").name == "hdr:dusk.hdr")
        for x in [10, 50] {
            let ratio = dusk.radiance[x, 24].y / daylight.radiance[x, 24].y
            #expect(abs(ratio - 2.0 / 1000) < 1e-5, "column \(x): \(ratio)")
        }
    }
}
