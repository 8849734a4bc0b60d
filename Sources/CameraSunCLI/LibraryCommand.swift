import CameraCore
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
            let library = try open(directory)
            let assets = try library.list()
            if json { return try terminal.json(Listing(directory: library.directory.path, assets: assets)) }
            terminal.print("\(assets.count) asset\(assets.count == 1 ? "" : "s") in \(library.directory.path)")
            for asset in assets { terminal.print(summary(asset)) }
        case "show":
            let id = try rest.positional("an asset id (see 'camerasun library list')")
            try rest.finish()
            let library = try open(directory)
            let asset = try library.asset(id: id)
            if json { return try terminal.json(asset) }
            terminal.print(summary(asset))
            terminal.print("  file: \(library.fileURL(for: asset).path)")
            terminal.print("  sha256: \(asset.sha256), \(asset.byteCount) bytes")
        case "verify":
            try rest.finish()
            let report = try open(directory).verify()
            if json { try terminal.json(report) } else { printVerification(report, terminal: terminal) }
            if !report.isClean { throw CLIError.runtime("the library has \(report.issues.count) problem(s) — run 'camerasun library repair'") }
        case "repair":
            try rest.finish()
            let report = try open(directory).repair()
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

    /// `--library DIR`, else the default (XDG pictures directory).
    static func libraryDirectory(_ arguments: inout ArgumentList) throws(CLIError) -> URL {
        try arguments.option("library").map { URL(fileURLWithPath: $0, isDirectory: true) } ?? PhotoLibrary.defaultDirectory()
    }

    static func open(_ directory: URL) throws -> PhotoLibrary {
        do {
            return try PhotoLibrary(directory: directory)
        } catch {
            throw CLIError.runtime("\(error)")
        }
    }

    private static func summary(_ asset: Asset) -> String {
        let exposure = asset.exposure.map { e in
            "  " + ShutterSpeed.describe(MediaTime(seconds: e.exposureTime, preferredTimescale: 1_000_000))
                + String(format: "  ISO %.0f  EV %+.1f  ", e.iso, e.evBias) + e.meteringMode
        } ?? ""
        return "\(asset.id)  \(asset.path)  \(asset.width)x\(asset.height)\(exposure)  \(asset.state.rawValue)"
    }

    private static func printVerification(_ report: VerificationReport, terminal: Terminal) {
        terminal.print("\(report.assetCount) catalogued, \(report.fileCount) files in \(report.directory)"
            + (report.inProgressCount > 0 ? ", \(report.inProgressCount) being written" : ""))
        for issue in report.issues + report.recordedProblems {
            terminal.print("\(issue.kind.rawValue): \(issue.path) — \(issue.detail)")
        }
        if report.isClean { terminal.print("library is consistent") }
    }
}
