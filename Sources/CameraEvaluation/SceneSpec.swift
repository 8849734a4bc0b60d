import CameraCodecs
import CameraCore
import CameraSimulated
import Foundation

/// A simulated scene as the command line names it: a built-in or test scene's name, or
/// `hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD]` — a view of an HDR image, its median
/// luminance `CD` cd/m² (1000 unless given). One parser for
/// `--source sim:…`, `scene render`, `ae-eval --scenes`, `--scene-file` and `--views` lists.
public enum SceneSpec {
    /// The subject intents an evaluation can judge: from near black up to the brightest mean that
    /// still fits under full scale (0.18 × 2^2.4 ≈ 0.95).
    static let intentRange = -8.0...2.4

    /// A built-in or test scene by name, or `hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD]`.
    public static func scene(_ spec: String) throws(EvaluationError) -> SimulatedScene {
        if spec.hasPrefix("hdr=") { return try hdrScene(String(spec.dropFirst(4))) }
        guard let scene = SimulatedScene.named(spec) else {
            let names = (SimulatedScene.builtIn + SimulatedScene.testScenes).map(\.name).joined(separator: ", ")
            throw .invalidInput("unknown scene '\(spec)' — choose one of \(names), or hdr=FILE")
        }
        return scene
    }

    /// An HDR scene from `hdr=`-style options (`FILE[,yaw=,pitch=,fov=,pan=,median=]`), with an optional
    /// subject rectangle and intent for evaluation. The options are checked before the file is read.
    static func hdrScene(_ spec: String, subject: NormalizedRect? = nil, intent: Double = 0) throws(EvaluationError) -> SimulatedScene {
        guard intentRange.contains(intent) else {
            throw .invalidInput("\(ValueOutOfRangeError(setting: "intent", value: intent, range: intentRange, unit: "EV"))")
        }
        // Empty fields are kept so that `hdr=,yaw=30` is a missing file, not a file named "yaw=30".
        var fields = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let path = fields.removeFirst()
        guard !path.isEmpty else { throw .invalidInput("sim:hdr= needs a file — e.g. sim:hdr=sky.hdr,yaw=30") }
        var view = SimulatedScene.ViewDirection()
        var median = SimulatedScene.hdrMedianLuminance
        for field in fields where !field.isEmpty {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let value = Double(pair[1]), value.isFinite else {
                throw .invalidInput("'\(field)' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG, pan=DEG or median=CD")
            }
            switch pair[0] {
            case "yaw": view.yaw = value
            case "pitch" where (-90...90).contains(value): view.pitch = value
            case "fov" where (1...170).contains(value): view.fov = value
            case "pan" where (1...360).contains(value): view.pan = value
            case "pitch", "fov", "pan":
                throw .invalidInput("\(pair[0]) \(value) is out of range — pitch takes -90…90, fov 1…170 and pan 1…360 degrees")
            case "median" where SimulatedScene.hdrMedianRange.contains(value): median = Float(value)
            case "median":
                throw .invalidInput("median \(value) is out of range — give the image's median luminance in cd/m², "
                    + "0.01…100000: about 1 at dusk, 1000 in daylight")
            default:
                throw .invalidInput("unknown sim:hdr= option '\(pair[0])' — use yaw=, pitch=, fov=, pan= or median=")
            }
        }
        if view.pan > 0, let subject, subject.x != 0 || subject.width != 1 {
            throw .invalidInput("along a pan the subject is a band the camera turns along — give x=0 and w=1, not \(String(format: "%g,%g,%g,%g", subject.x, subject.y, subject.width, subject.height))")
        }
        let url = URL(fileURLWithPath: path)
        do {
            // Kept packed (4 bytes a pixel): a panorama at the decoder's limit takes 400 MB, not 1.2 GB.
            let image = try RadianceHDRDecoder().decodePacked(contentsOf: url)
            return SimulatedScene.hdrImage(packed: image.pixels, width: image.width, height: image.height, named: url.lastPathComponent,
                                           view: view, subject: subject, intent: intent, medianLuminance: median)
        } catch {
            throw .unreadable("\(error)")
        }
    }
}
