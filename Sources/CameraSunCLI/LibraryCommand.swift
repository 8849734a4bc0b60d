import CameraCore
import CameraMovie
import CameraPhotos
import Foundation
import PhotoLibrary

/// `camerasun library list|show ID|verify|repair [--library DIR] [--json]`: the photo library's
/// catalogue, one asset, and the check and repair of files ⇄ catalogue (CLI.md).
enum LibraryCommand {
    struct Listing: Encodable {
        let directory: String
        let assets: [Asset]
    }

    static func run(_ arguments: [String], terminal: Terminal) throws {
        guard let verb = arguments.first else {
            throw CLIError.usage("library needs list, show ID, verify or repair — see 'camerasun help library'")
        }
        var rest = ArgumentList(Array(arguments.dropFirst()), command: "library")
        let json = rest.flag("json")
        let directory = try libraryDirectory(&rest)
        switch verb {
        case "list":
            try rest.finish()
            let library = try openExisting(directory)
            let assets = try reporting { () throws(PhotoLibraryError) in try library.list() }
            if json { return try terminal.json(Listing(directory: library.directory.path, assets: assets)) }
            terminal.print("\(assets.count) asset\(assets.count == 1 ? "" : "s") in \(library.directory.path)")
            for asset in assets { terminal.print(summary(asset)) }
        case "show":
            let id = try rest.positional("an asset id (see 'camerasun library list')")
            try rest.finish()
            let library = try openExisting(directory)
            let asset = try reporting { () throws(PhotoLibraryError) in try library.asset(id: id) }
            if json { return try terminal.json(asset) }
            terminal.print(summary(asset))
            terminal.print("  file: \(library.fileURL(for: asset).path)")
            terminal.print("  sha256: \(asset.sha256), \(asset.byteCount) bytes")
        case "verify":
            try rest.finish()
            let library = try openExisting(directory)
            let report = try reporting { () throws(PhotoLibraryError) in try library.verify() }
            if json { try terminal.json(report) } else { verificationLines(report).forEach(terminal.print) }
            if !report.isClean { throw CLIError.runtime("the library has \(report.issues.count) problem(s) — run 'camerasun library repair'") }
        case "repair":
            try rest.finish()
            let library = try openExisting(directory)
            let report = try reporting { () throws(PhotoLibraryError) in try library.repair(validateMovie: MovieFacts.validate) }
            if json { return try terminal.json(report) }
            for action in report.actions {
                terminal.print("\(action.kind.rawValue): \(action.path) — \(action.detail)")
            }
            terminal.print(report.actions.isEmpty ? "nothing to repair" : "\(report.actions.count) repair(s) made")
            for issue in report.unrepaired {
                terminal.print("not repaired: \(issue.kind.rawValue) \(issue.path) — \(issue.detail)")
            }
        default:
            throw CLIError.usage("unknown library command '\(verb)' — use list, show ID, verify or repair")
        }
    }

    /// `--library DIR`, else the default (XDG pictures directory). An empty DIR is a usage error:
    /// it would make the current directory a library.
    static func libraryDirectory(_ arguments: inout ArgumentList) throws(CLIError) -> URL {
        guard let path = try arguments.option("library") else { return PhotoLibrary.defaultDirectory() }
        guard !path.isEmpty else {
            throw .usage("--library '' names no directory — pass the photo library's directory, e.g. --library ~/Pictures/CameraSun")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .usage("--library \(path) is a file, not a folder — pass the photo library's folder, e.g. --library ~/Pictures/CameraSun")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The library in `directory`, created when absent: for commands that add photos.
    static func open(_ directory: URL) throws(CLIError) -> PhotoLibrary {
        try reporting { () throws(PhotoLibraryError) in try PhotoLibrary(directory: directory) }
    }

    /// The existing library in `directory`; never creates one: for commands that only read or repair it.
    static func openExisting(_ directory: URL) throws(CLIError) -> PhotoLibrary {
        try reporting { () throws(PhotoLibraryError) in try PhotoLibrary(opening: directory) }
    }

    /// What `body` returns; a library error becomes a run-time `CLIError` with its remedy.
    static func reporting<Result>(_ body: () throws(PhotoLibraryError) -> Result) throws(CLIError) -> Result {
        do {
            return try body()
        } catch {
            throw .runtime(describe(error))
        }
    }

    /// A library error as the command line says it: what failed, then " — " and what to do, in
    /// terms of this command line's flags and commands.
    static func describe(_ error: PhotoLibraryError) -> String {
        let remedy = switch error.kind {
        case .notALibrary:
            "pass the directory of an existing photo library with --library DIR (`camerasun photo` creates one when it saves a first photo)"
        case .readOnly: "remount it read-write, make it writable, or choose another directory with --library DIR"
        case .insufficientSpace: "free some space on that disk or choose another directory with --library DIR"
        case .busy: "another program kept the catalogue locked; try again when it has finished"
        case .fileSystem: "check the library folder's permissions and the disk, then run `camerasun library verify`"
        case .catalog: "check the disk, then run `camerasun library verify`"
        case .notFound: "`camerasun library list` shows the ids"
        case .invalidArgument: "this is a bug in camerasun; please report it with the command that failed"
        }
        return "\(error) — \(remedy)"
    }

    private static func summary(_ asset: Asset) -> String {
        let exposure = asset.exposure.map { e in
            "  " + ShutterSpeed.describe(MediaTime(seconds: e.exposureTime, preferredTimescale: 1_000_000))
                + String(format: "  ISO %.0f  EV %+.1f  ", e.iso, e.evBias) + e.meteringMode
        } ?? ""
        return "\(asset.id)  \(asset.path)  \(asset.width)x\(asset.height)\(exposure)  \(asset.state.rawValue)"
    }

    /// `verify`'s text: the counts, every issue, then a summary that agrees with them — consistent
    /// only when nothing is listed; when only assets an earlier repair recorded as missing or
    /// damaged are listed, the catalogue agrees with the files but those photos are still lost.
    static func verificationLines(_ report: VerificationReport) -> [String] {
        var lines = ["\(report.assetCount) catalogued, \(report.fileCount) files in \(report.directory)"
            + (report.inProgressCount > 0 ? ", \(report.inProgressCount) being written" : "")]
        lines += report.issues.map { "\($0.kind.rawValue): \($0.path) — \($0.detail)" }
        lines += report.recordedProblems.map { "\($0.kind.rawValue) (recorded by an earlier repair): \($0.path) — \($0.detail)" }
        guard report.isClean else { return lines }
        let recorded = report.recordedProblems.count
        lines.append(recorded == 0 ? "library is consistent"
            : "the catalogue agrees with the files, but \(recorded) photo\(recorded == 1 ? " is" : "s are") still "
                + "missing or damaged (listed above; restore \(recorded == 1 ? "its file" : "their files") from a backup, "
                + "then run 'camerasun library repair')")
        return lines
    }
}
