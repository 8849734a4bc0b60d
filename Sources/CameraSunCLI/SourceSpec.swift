import CameraCapture
import CameraEvaluation
import CameraSimulated

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

    /// Opens the camera this source names, in the format that best meets `request`; a simulated
    /// one with `syncMarks` marks each whole second (`SimulatedCamera.syncMarkGain`).
    func openCamera(request: FormatRequest, seed: UInt64, pacing: SimulatedCamera.Pacing, syncMarks: Bool = false) throws -> OpenedCamera {
        switch self {
        case .simulated(let sceneSpec):
            let scene = try SourceSpec.scene(sceneSpec)
            let choice = try OpenedCamera.choose(request, among: SimulatedCamera.formats(offering: request.size))
            let camera = try SimulatedCamera(scene: scene, format: choice.format, frameRate: choice.frameRate, seed: seed, pacing: pacing,
                                             syncMarks: syncMarks)
            return OpenedCamera(device: camera, format: choice)
        case .v4l2(let path):
            throw CLIError.runtime("cannot open v4l2:\(path): this build has no V4L2 back-end yet — use --source sim:SCENE")
        case .file(let path):
            throw CLIError.runtime("cannot open file:\(path): this build cannot play video files yet — use --source sim:SCENE")
        }
    }

    /// A built-in scene by name, or `hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD]` (`SceneSpec`).
    static func scene(_ spec: String) throws(CLIError) -> SimulatedScene {
        do {
            return try SceneSpec.scene(spec)
        } catch {
            throw CLIError(error)
        }
    }
}
