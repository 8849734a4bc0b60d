import CameraCapture
import CameraCodecs
import CameraCore
import CameraMetering
import CameraSimulated
import Foundation

/// `camerasun scene list|render`: the built-in scenes, and one rendered frame of a scene.
enum SceneCommand {
    struct Listing: Encodable {
        struct Scene: Encodable {
            let name: String
            let description: String
            let intent: Double
        }

        let scenes: [Scene]
    }

    struct Rendered: Encodable {
        let out: String
        let scene: String
        let width: Int
        let height: Int
        let exposureTime: Double
        let gain: Double
        let iso: Double
        let evBias: Double
        let brightness: Double
        let clippedFraction: Double
    }

    static func run(_ arguments: [String], terminal: Terminal) async throws {
        guard let verb = arguments.first else {
            throw CLIError.usage("scene needs 'list' or 'render' — see 'camerasun help scene'")
        }
        let rest = ArgumentList(Array(arguments.dropFirst()), command: "scene")
        switch verb {
        case "list": try list(rest, terminal: terminal)
        case "render": try await render(rest, terminal: terminal)
        default: throw CLIError.usage("unknown scene command '\(verb)' — use 'scene list' or 'scene render'")
        }
    }

    private static func list(_ arguments: ArgumentList, terminal: Terminal) throws {
        var arguments = arguments
        let json = arguments.flag("json")
        try arguments.finish()
        let scenes = SimulatedScene.builtIn.map {
            Listing.Scene(name: $0.name, description: $0.summary, intent: $0.subjectIntent)
        }
        if json {
            try terminal.json(Listing(scenes: scenes))
            return
        }
        for scene in scenes {
            let intent = scene.intent == 0 ? "" : String(format: " (intent %+.1f EV)", scene.intent)
            terminal.print("\(scene.name.padding(toLength: 18, withPad: " ", startingAt: 0))\(scene.description)\(intent)")
        }
    }

    private static func render(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        guard let out = try arguments.option("out") else {
            throw CLIError.usage("scene render needs --out FILE.png — e.g. camerasun scene render backlit-portrait --out a.png")
        }
        let bias = try arguments.double("ev") ?? 0
        let shutter = try arguments.shutter()
        let gain = try arguments.gain()
        let width = try arguments.positiveInt("width") ?? 1920
        let height = try arguments.positiveInt("height") ?? 1080
        let seed = try arguments.seed()
        let sceneSpec = try arguments.positional("a scene name (see 'camerasun scene list')")
        try arguments.finish()

        let scene = try SourceSpec.scene(sceneSpec)
        let format = DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: .bgra8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera: SimulatedCamera
        do {
            camera = try SimulatedCamera(scene: scene, format: format, seed: seed)
        } catch let CaptureError.invalidConfiguration(reason) {
            throw CLIError.usage("--width \(width) --height \(height): \(reason)")
        }
        _ = try ValueOutOfRangeError.check(bias, in: camera.capabilities.exposureBias, setting: "--ev", unit: "EV")
        try camera.updateControls { $0.exposureBias = bias }
        let exposure = try ExposureChoice.resolve(shutter: shutter, gain: gain, bias: bias, camera: camera)
        try exposure.apply(to: camera)
        try camera.startStreaming()
        let frame = try await camera.nextFrame()
        do {
            try PNGEncoder().write(frame.buffer, to: URL(fileURLWithPath: out))
        } catch {
            throw CLIError.runtime("\(error)")
        }
        let luma = try FrameAnalyzer().analyze(frame.buffer)
        let result = Rendered(out: out, scene: scene.name, width: width, height: height,
                              exposureTime: frame.metadata.exposureDuration.seconds, gain: frame.metadata.analogueGain,
                              iso: frame.metadata.iso, evBias: bias, brightness: luma.brightness, clippedFraction: luma.clippedFraction)
        if json {
            try terminal.json(result)
        } else {
            terminal.print("wrote \(out): \(scene.name) \(width)x\(height), \(ShutterSpeed.describe(frame.metadata.exposureDuration)), "
                + "ISO \(Int(frame.metadata.iso.rounded())), brightness \(String(format: "%.3f", luma.brightness)), "
                + "clipped \(String(format: "%.1f", luma.clippedFraction * 100))%")
        }
    }
}
