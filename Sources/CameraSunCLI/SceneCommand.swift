import CameraCapture
import CameraCodecs
import CameraCore
import CameraEvaluation
import CameraExposure
import CameraISP
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

            init(_ scene: SimulatedScene) {
                name = scene.name
                description = scene.summary
                intent = scene.subjectIntent
            }
        }

        let scenes: [Scene]
        /// Scenes made to test one feature, apart from the contract's built-in eight.
        let testScenes: [Scene]
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
        let shadows: Double
        /// The EV the tone mapper lifted the subject by (0 at a fixed exposure), and whether it was the local one.
        let renderGainEV: Double
        let hdr: Bool
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
        let scenes = SimulatedScene.builtIn.map(Listing.Scene.init)
        if json {
            try terminal.json(Listing(scenes: scenes, testScenes: SimulatedScene.testScenes.map(Listing.Scene.init)))
            return
        }
        for scene in scenes {
            let intent = scene.intent == 0 ? "" : String(format: " (intent %+.1f EV)", scene.intent)
            terminal.print("\(scene.name.padding(toLength: 18, withPad: " ", startingAt: 0))\(scene.description)\(intent)")
        }
    }

    /// Without `--shutter`/`--gain` the sun AE converges in closed loop and the PNG is its picture,
    /// tone-mapped as `--hdr` says (what the viewfinder and a photo show); with them, the frame is
    /// rendered as the sensor exposed it, at no render gain.
    private static func render(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        guard let out = try arguments.option("out") else {
            throw CLIError.usage("scene render needs --out FILE.png — e.g. camerasun scene render backlit-portrait --out a.png")
        }
        let bias = try arguments.double("ev") ?? 0
        let shadows = try arguments.shadows()
        let shutter = try arguments.shutter()
        let gain = try arguments.gain()
        let toneMapping = try arguments.hdr()
        let width = try arguments.integer("width", in: CaptureFlags.sizeRange, unit: "pixels") ?? 1920
        let height = try arguments.integer("height", in: CaptureFlags.sizeRange, unit: "pixels") ?? 1080
        let seed = try arguments.seed()
        let sceneSpec = try arguments.positional("a scene name (see 'camerasun scene list')")
        try arguments.finish()
        if toneMapping != nil && (shutter != nil || gain != nil) {
            throw CLIError.usage("--hdr tone-maps the AE's picture, and --shutter/--gain render the frame as exposed — drop one of them")
        }
        if shadows != nil && (shutter != nil || gain != nil) {
            throw CLIError.usage("--shadows shapes the AE's picture, and --shutter/--gain render the frame as exposed — drop one of them")
        }
        try WritablePath.check(out, writing: "the picture", flag: "--out")

        let scene = try SourceSpec.scene(sceneSpec)
        let size = PixelSize(width: width, height: height)
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera: SimulatedCamera
        do {
            camera = try SimulatedCamera(scene: scene, format: format, seed: seed)
        } catch let CaptureError.invalidConfiguration(reason) {
            throw CLIError.usage("--width \(width) --height \(height): \(reason)")
        }
        _ = try ValueOutOfRangeError.check(bias, in: camera.capabilities.exposureBias, setting: "--ev", unit: "EV")
        let picture: Picture
        if shutter == nil && gain == nil {
            picture = try await converged(scene, size: size, seed: seed, toneMapping: toneMapping ?? .local, bias: bias, shadows: shadows ?? 0)
        } else {
            try camera.updateControls { $0.exposureBias = bias }
            try ExposureChoice.resolve(shutter: shutter, gain: gain, bias: bias, camera: camera).apply(to: camera)
            try camera.startStreaming()
            let frame = try await camera.nextFrame()
            picture = Picture(buffer: frame.buffer, metadata: frame.metadata, renderGainEV: 0, hdr: false)
        }
        do {
            try PNGEncoder().write(picture.buffer, to: URL(fileURLWithPath: out))
        } catch {
            throw CLIError.runtime("\(error)")
        }
        let luma = try FrameAnalyzer().analyze(picture.buffer)
        let metadata = picture.metadata
        let result = Rendered(out: out, scene: scene.name, width: width, height: height,
                              exposureTime: metadata.exposureDuration.seconds, gain: metadata.analogueGain, iso: metadata.iso,
                              evBias: bias, shadows: shadows ?? 0, renderGainEV: picture.renderGainEV, hdr: picture.hdr,
                              brightness: luma.brightness, clippedFraction: luma.clippedFraction)
        if json {
            try terminal.json(result)
        } else {
            let rendering = picture.hdr ? ", HDR" : ""
            let lift = picture.renderGainEV == 0 ? "" : String(format: ", render gain %+.1f EV", picture.renderGainEV)
            terminal.print("wrote \(out): \(scene.name) \(width)x\(height), \(ShutterSpeed.describe(metadata.exposureDuration)), "
                + "ISO \(Int(metadata.iso.rounded()))\(lift)\(rendering), brightness \(String(format: "%.3f", luma.brightness)), "
                + "clipped \(String(format: "%.1f", luma.clippedFraction * 100))%")
        }
    }

    /// A rendered frame and what made it.
    private struct Picture {
        let buffer: PixelBuffer
        let metadata: FrameMetadata
        let renderGainEV: Double
        let hdr: Bool
    }

    /// Frames the sun AE gets to settle before its picture is taken: in `ae-eval` it settles in
    /// at most 25 on the built-in scenes that hold still (BENCHMARKS.md).
    static let settlingFrames = 45

    /// The sun AE's picture of `scene` once it has settled, its shadows set to `shadows`.
    private static func converged(_ scene: SimulatedScene, size: PixelSize, seed: UInt64, toneMapping: ToneMapping,
                                  bias: Double, shadows: Double) async throws -> Picture {
        let evaluation = ClosedLoopEvaluation(frameCount: settlingFrames, size: size, seed: seed, toneMapping: toneMapping, bias: bias)
        var algorithm = SunAwareExposure()
        algorithm.shadows = shadows
        let result = try await evaluation.run(scene, algorithm: algorithm)
        guard let buffer = result.output, let metadata = result.metadata else {
            throw CLIError.runtime("the AE produced no picture of \(scene.name) — try again with --shutter and --gain")
        }
        return Picture(buffer: buffer, metadata: metadata, renderGainEV: result.renderGainEV, hdr: toneMapping == .local)
    }
}
