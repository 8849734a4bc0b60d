import CameraCore
import CameraSimulated

/// A scene to evaluate, with what the report says about its subject: a built-in scene, an HDR
/// file given on the command line, or a view from an `--views` list.
public struct EvaluatedScene {
    public let scene: SimulatedScene
    /// Why the subject is what it is: the view list's reason, or the built-in scene's summary.
    let why: String
    /// The subject rectangle of an HDR view; nil for built-in scenes, whose subject is painted.
    let subject: NormalizedRect?
    /// The set the scene belongs to, which the summary sums up: the view list's path, or
    /// `builtInList` or `commandLineList`.
    let list: String
    /// The same view at dusk (the image's median at `duskMedianLuminance`); nil for built-in scenes.
    let dusk: SimulatedScene?

    static let builtInList = "built-in scenes"
    static let commandLineList = "--scene-file"
    /// The median luminance of a view at dusk, cd/m²: it must render darker than the same view in daylight.
    static let duskMedianLuminance = 5.0

    /// A built-in scene, its summary as the reason.
    public init(builtIn scene: SimulatedScene) {
        self.init(scene: scene, why: scene.summary, subject: nil, list: Self.builtInList, dusk: nil)
    }

    /// An HDR view (`SceneSpec.hdrScene`'s `FILE[,yaw=,pitch=,fov=,pan=]`) given on the command
    /// line, judged on `subject` at `intent` EV from mid-grey.
    public init(hdrSpec spec: String, subject: NormalizedRect, intent: Double) throws(EvaluationError) {
        self.init(scene: try SceneSpec.hdrScene(spec, subject: subject, intent: intent), why: "given on the command line.", subject: subject,
                  list: Self.commandLineList, dusk: try Self.dusk(spec, subject: subject, intent: intent))
    }

    init(scene: SimulatedScene, why: String, subject: NormalizedRect?, list: String, dusk: SimulatedScene?) {
        self.scene = scene
        self.why = why
        self.subject = subject
        self.list = list
        self.dusk = dusk
    }

    /// The views of the list at `path` (`EvaluationView`), each made into its scene.
    public static func views(listedIn path: String) throws(EvaluationError) -> [EvaluatedScene] {
        try EvaluationView.load(path).map { view throws(EvaluationError) in
            EvaluatedScene(scene: try view.scene(), why: view.why, subject: view.subject, list: path,
                           dusk: try dusk(view.spec, subject: view.subject, intent: view.intent))
        }
    }

    /// The view of `spec` at dusk: its median, whatever the spec says, at `duskMedianLuminance`.
    static func dusk(_ spec: String, subject: NormalizedRect, intent: Double) throws(EvaluationError) -> SimulatedScene {
        let fields = spec.split(separator: ",", omittingEmptySubsequences: false).filter { !$0.hasPrefix("median=") }
        return try SceneSpec.hdrScene(fields.joined(separator: ",") + ",median=\(duskMedianLuminance)", subject: subject, intent: intent)
    }

    /// "x,y,w,h" as a normalised rectangle inside the frame (top-left origin), or nil.
    public static func subject(parsing text: String) -> NormalizedRect? {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }), parts[2] > 0, parts[3] > 0,
              parts[0] + parts[2] <= 1, parts[1] + parts[3] <= 1 else { return nil }
        return NormalizedRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }
}
