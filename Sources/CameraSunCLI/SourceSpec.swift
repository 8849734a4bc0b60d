import CameraCapture
import CameraEvaluation
import CameraRecording
import CameraSimulated
import CameraV4L2
import CameraVideoFile

/// A `--source` value: where frames come from (see CLI.md, "Sources").
enum SourceSpec: Equatable {
    /// `sim:SCENE` or `sim:hdr=FILE[,yaw=,pitch=,fov=,pan=]`, either with `,syncmarks`: the
    /// simulated camera; the payload is the part after `sim:` without `syncmarks`, a test aid that
    /// flashes the frame holding each whole second and clicks the simulated microphone then, so a
    /// take's A/V offset can be measured.
    case simulated(String, syncMarks: Bool = false)
    /// `v4l2:/dev/videoN`
    case v4l2(String)
    /// `file:PATH`
    case file(String)

    static let defaultSpec = SourceSpec.simulated("backlit-portrait")
    /// The `sim:` option that turns the sync marks on.
    static let syncMarksOption = "syncmarks"

    /// Whether the source asks for sync marks (`sim:SCENE,syncmarks`).
    var syncMarks: Bool {
        if case .simulated(_, let marks) = self { marks } else { false }
    }

    /// A `file:` source's own sound; nil for other sources and a file without sound. Throws
    /// naming a file whose sound does not decode.
    func fileSound() throws -> FileSound? {
        guard case .file(let path) = self else { return nil }
        return try FileSound(path: path)
    }

    /// The source when `--source` is absent (CLI.md): the first V4L2 camera that opens, else the
    /// simulated camera on the default scene.
    static func firstCamera() -> SourceSpec {
        let nodes = (try? V4L2Camera.captureDevices()) ?? []
        guard let usable = nodes.first(where: { (try? $0.camera.get()) != nil }) else { return defaultSpec }
        return .v4l2(usable.path)
    }

    /// Parses the value of `flag` (`--source`, or `--source2` for a second camera).
    init(parsing text: String, flag: String = "--source") throws(CLIError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw .usage("\(flag) '\(text)' is not a source — use sim:SCENE, sim:hdr=FILE, v4l2:/dev/videoN or file:PATH")
        }
        switch parts[0] {
        case "sim":
            let items = parts[1].split(separator: ",", omittingEmptySubsequences: false)
            let scene = items.filter { $0 != Self.syncMarksOption }.joined(separator: ",")
            guard !scene.isEmpty else { throw .usage("\(flag) '\(text)' names no scene — use sim:SCENE,\(Self.syncMarksOption)") }
            self = .simulated(scene, syncMarks: scene.count < parts[1].count)
        case "v4l2": self = .v4l2(parts[1])
        case "file": self = .file(parts[1])
        default:
            throw .usage("\(flag) '\(text)' has an unknown kind '\(parts[0])' — use sim:, v4l2: or file:")
        }
    }

    /// The cameras a user can choose from, as `camerasun devices` lists them: every V4L2 capture
    /// node that opens, then the simulated camera (on the default scene); and the nodes that did
    /// not open, each with why and what to do.
    static func connectedCameras() throws -> (cameras: [any CaptureDevice], unusable: [String]) {
        let nodes = (try? V4L2Camera.captureDevices()) ?? []
        var cameras: [any CaptureDevice] = []
        var unusable: [String] = []
        for node in nodes {
            switch node.camera {
            case .success(let camera): cameras.append(camera)
            case .failure(let error): unusable.append("\(node.path): \(error)")
            }
        }
        return (cameras + [try SimulatedCamera(scene: .backlitPortrait)], unusable)
    }

    /// Opens the camera this source names, in the format that best meets `request`; a simulated
    /// one with sync marks marks each whole second (`SimulatedCamera.syncMarkGain`) and faces
    /// `position` (other cameras say where they face themselves).
    /// A file source with `once` ends after its last frame.
    func openCamera(request: FormatRequest, seed: UInt64, pacing: SimulatedCamera.Pacing, once: Bool = false,
                    position: DevicePosition = .back) throws -> OpenedCamera {
        switch self {
        case .simulated(let sceneSpec, let syncMarks):
            let scene = try SourceSpec.scene(sceneSpec)
            let choice = try OpenedCamera.choose(request, among: SimulatedCamera.formats(offering: request.size))
            let camera = try SimulatedCamera(scene: scene, format: choice.format, frameRate: choice.frameRate, seed: seed, pacing: pacing,
                                             syncMarks: syncMarks, position: position)
            return OpenedCamera(device: camera, format: choice)
        case .v4l2(let path):
            let camera = try V4L2Camera(path: path)
            let choice = try OpenedCamera.choose(request, among: camera.formats)
            try camera.configure { settings in
                settings.activeFormat = choice.format
                settings.frameRate = choice.frameRate
            }
            return OpenedCamera(device: camera, format: choice)
        case .file(let path):
            // A file plays at its own size and rate, whatever the capture flags ask.
            let camera = try VideoFileCamera(path: path, realtime: pacing == .realtime, loops: !once)
            return OpenedCamera(device: camera, format: FormatChoice(format: camera.activeFormat, frameRate: camera.settings.frameRate,
                                                                     fallbackReason: nil))
        }
    }

    /// A built-in or test scene by name, or `hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD]` (`SceneSpec`).
    static func scene(_ spec: String) throws(CLIError) -> SimulatedScene {
        do {
            return try SceneSpec.scene(spec)
        } catch {
            throw CLIError(error)
        }
    }
}
