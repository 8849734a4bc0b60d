import CameraCapture
import CameraCodecs
import CameraCore
import CameraSimulated
import Foundation

/// A `--source` value: where frames come from (see CLI.md, "Sources").
enum SourceSpec: Equatable {
    /// `sim:SCENE` or `sim:hdr=FILE[,yaw=,pitch=,fov=,pan=]`: the simulated camera; the payload is
    /// the part after `sim:`.
    case simulated(String)
    /// `v4l2:/dev/videoN`
    case v4l2(String)
    /// `file:PATH`
    case file(String)

    static let defaultSpec = SourceSpec.simulated("backlit-portrait")

    init(parsing text: String) throws(CLIError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw .usage("--source '\(text)' is not a source — use sim:SCENE, sim:hdr=FILE, v4l2:/dev/videoN or file:PATH")
        }
        switch parts[0] {
        case "sim": self = .simulated(parts[1])
        case "v4l2": self = .v4l2(parts[1])
        case "file": self = .file(parts[1])
        default:
            throw .usage("--source '\(text)' has an unknown kind '\(parts[0])' — use sim:, v4l2: or file:")
        }
    }

    /// The cameras a user can choose from, as `camerasun devices` lists them: today the simulated
    /// camera (on the default scene), until the V4L2 back-end lands.
    static func connectedCameras() throws -> [any CaptureDevice] {
        [try SimulatedCamera(scene: .backlitPortrait)]
    }

    /// Opens the camera this source names, in the format that best meets `request`.
    func openCamera(request: FormatRequest, seed: UInt64, pacing: SimulatedCamera.Pacing) throws -> OpenedCamera {
        switch self {
        case .simulated(let sceneSpec):
            let scene = try SourceSpec.scene(sceneSpec)
            let choice = try OpenedCamera.choose(request, among: SimulatedCamera.formats(offering: request.size))
            let camera = try SimulatedCamera(scene: scene, format: choice.format, frameRate: choice.frameRate, seed: seed, pacing: pacing)
            return OpenedCamera(device: camera, format: choice)
        case .v4l2(let path):
            throw CLIError.runtime("cannot open v4l2:\(path): this build has no V4L2 back-end yet — use --source sim:SCENE")
        case .file(let path):
            throw CLIError.runtime("cannot open file:\(path): this build cannot play video files yet — use --source sim:SCENE")
        }
    }

    /// A built-in scene by name, or `hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG]`.
    static func scene(_ spec: String) throws(CLIError) -> SimulatedScene {
        if spec.hasPrefix("hdr=") { return try hdrScene(String(spec.dropFirst(4))) }
        guard let scene = SimulatedScene.named(spec) else {
            let names = SimulatedScene.builtIn.map(\.name).joined(separator: ", ")
            throw .usage("unknown scene '\(spec)' — choose one of \(names), or hdr=FILE")
        }
        return scene
    }

    /// The subject intents an evaluation can judge: from near black up to the brightest mean that
    /// still fits under full scale (0.18 × 2^2.4 ≈ 0.95).
    static let intentRange = -8.0...2.4

    /// An HDR scene from `hdr=`-style options (`FILE[,yaw=,pitch=,fov=,pan=]`), with an optional
    /// subject rectangle and intent for evaluation.
    static func hdrScene(_ spec: String, subject: NormalizedRect? = nil, intent: Double = 0) throws(CLIError) -> SimulatedScene {
        guard intentRange.contains(intent) else {
            throw .usage("\(ValueOutOfRangeError(setting: "intent", value: intent, range: intentRange, unit: "EV"))")
        }
        // Empty fields are kept so that `hdr=,yaw=30` is a missing file, not a file named "yaw=30".
        var fields = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let path = fields.removeFirst()
        guard !path.isEmpty else { throw .usage("sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30") }
        var view = SimulatedScene.ViewDirection()
        for field in fields where !field.isEmpty {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let value = Double(pair[1]), value.isFinite else {
                throw .usage("'\(field)' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG or pan=DEG")
            }
            switch pair[0] {
            case "yaw": view.yaw = value
            case "pitch" where (-90...90).contains(value): view.pitch = value
            case "fov" where (1...170).contains(value): view.fov = value
            case "pan" where (1...360).contains(value): view.pan = value
            case "pitch", "fov", "pan":
                throw .usage("\(pair[0]) \(value) is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees")
            default:
                throw .usage("unknown sim:hdr= option '\(pair[0])' — use yaw=, pitch=, fov= or pan=")
            }
        }
        if view.pan > 0, let subject, subject.x != 0 || subject.width != 1 {
            throw .usage("along a pan the subject is a band the camera turns along — give x=0 and w=1, not \(String(format: "%g,%g,%g,%g", subject.x, subject.y, subject.width, subject.height))")
        }
        let url = URL(fileURLWithPath: path)
        do {
            let image = try RadianceHDRDecoder().decode(contentsOf: url)
            return SimulatedScene.hdrImage(image, named: url.lastPathComponent, view: view, subject: subject, intent: intent)
        } catch {
            throw .runtime("\(error)")
        }
    }
}
