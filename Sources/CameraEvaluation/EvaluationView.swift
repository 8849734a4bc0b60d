import CameraCore
import CameraSimulated
import Foundation

/// A view of an HDR image to judge auto-exposure on: where the camera looks, the subject a
/// photographer would expose for, how bright they want it, and why — one line of an
/// `ae-eval --views` list, so that the choice of subject is written down beside the figures.
///
/// A line is `FILE[,yaw=,pitch=,fov=,median=]  x,y,w,h  INTENT  WHY…`, fields separated by spaces; blank
/// lines and lines starting with `#` are skipped. A bare FILE name is looked up in the scene
/// directory, where `make scenes` puts Blender's HDRIs; a relative path with a folder
/// (`scenes/Garden.hdr`) is relative to the list's own folder, as `eval/real-scenes.txt` names the
/// photographs in `eval/scenes/`.
struct EvaluationView: Equatable {
    /// The `hdr=`-style spec, its file resolved against the scene directory.
    let spec: String
    let subject: NormalizedRect
    let intent: Double
    let why: String
    /// "FILE line N", for errors about the view.
    let place: String

    /// Where `make scenes` (scripts/fetch-scenes.sh) caches the HDRIs.
    static func sceneDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return cache + "/camerasun/scenes"
    }

    /// The views listed in the file at `path`, which may be a pipe (`--views <(…)`, /dev/stdin).
    static func load(_ path: String, sceneDirectory: String = sceneDirectory()) throws(EvaluationError) -> [EvaluationView] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .invalidInput("the view list \(path) is a directory — give the list's file, e.g. eval/hdr-views.txt")
        }
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw .unreadable("cannot read the view list \(path): \(String(cString: strerror(errno))) — check the path")
        }
        defer { try? file.close() }
        let data: Data
        do {
            data = try file.readToEnd() ?? Data()
        } catch {
            throw .unreadable("cannot read the view list \(path): \(error.localizedDescription) — check the path")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidInput("the view list \(path) is not UTF-8 text — save it as UTF-8")
        }
        return try parse(text, path: path, sceneDirectory: sceneDirectory)
    }

    /// The view's scene, its subject marked; errors name the list and line.
    func scene() throws(EvaluationError) -> SimulatedScene {
        do {
            return try SceneSpec.hdrScene(spec, subject: subject, intent: intent)
        } catch {
            throw error.located(place)
        }
    }

    /// The views in `text`, read from `path` (named in errors, with the line).
    static func parse(_ text: String, path: String, sceneDirectory: String) throws(EvaluationError) -> [EvaluationView] {
        var views: [EvaluationView] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let place = "\(path) line \(index + 1)"
            let fields = line.split(maxSplits: 3, omittingEmptySubsequences: true, whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count == 4 else {
                throw .invalidInput("\(place) has \(fields.count) of its 4 fields — write FILE[,yaw=,pitch=,fov=] x,y,w,h INTENT WHY")
            }
            guard let subject = EvaluatedScene.subject(parsing: fields[1]) else {
                throw .invalidInput("\(place): subject '\(fields[1])' is not x,y,w,h — four numbers 0…1, the rectangle inside the frame")
            }
            guard let intent = Double(fields[2]), intent.isFinite else {
                throw .invalidInput("\(place): intent '\(fields[2])' is not a number — the subject's brightness in EV from mid-grey, 0 for mid-grey")
            }
            var spec = fields[0]
            let inList = spec.prefix { $0 != "," }.contains("/")
            let listDirectory = (path as NSString).deletingLastPathComponent
            if !spec.hasPrefix("/") { spec = (inList ? (listDirectory.isEmpty ? "." : listDirectory) : sceneDirectory) + "/" + spec }
            let file = String(spec.prefix { $0 != "," })
            guard FileManager.default.fileExists(atPath: file) else {
                if inList { throw .unreadable("\(place): \(file) does not exist — a path with a folder is read relative to the list's own folder") }
                throw .unreadable("\(place): \(file) does not exist — run 'make scenes' to fetch Blender's HDRIs into \(sceneDirectory)")
            }
            views.append(EvaluationView(spec: spec, subject: subject, intent: intent,
                                        why: fields[3].trimmingCharacters(in: .whitespaces), place: place))
        }
        guard !views.isEmpty else { throw .invalidInput("\(path) lists no views — write one per line: FILE x,y,w,h INTENT WHY") }
        return views
    }
}
