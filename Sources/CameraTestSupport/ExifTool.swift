import Foundation

/// The real exiftool (`exiftool -j -n`: JSON, numbers unformatted): the independent reader that
/// photo and EXIF tests check what was written against.
public enum ExifTool {
    /// exiftool was missing or failed; the message says what to do.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let path = "/usr/bin/exiftool"

    /// The tags exiftool reads from the files at `paths`, keyed by path, by exiftool's tag names.
    public static func read(files paths: [String]) async throws -> [String: [String: Any]] {
        let (status, json, errors) = try await run(["-j", "-n"] + paths)
        guard status == 0, let files = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
            throw Failure(description: "exiftool could not read \(paths.joined(separator: ", ")) (status \(status)): \(json) \(errors)")
        }
        return Dictionary(uniqueKeysWithValues: files.compactMap { tags in (tags["SourceFile"] as? String).map { ($0, tags) } })
    }

    /// exiftool run with `arguments` (as `-validate -warning -a FILE`): its status, output and errors.
    public static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(path) is missing — run make deps (installs libimage-exiftool-perl)")
        }
        let (status, output, errors) = try await runTool(path, arguments)
        return (status, String(decoding: output, as: UTF8.self), errors)
    }

    /// Every tag exiftool reads from the file at `path`, duplicates included, keyed by directory and
    /// name ("IFD0:Make", "SubIFD:ImageWidth", "ExifIFD:ISO"): for files with several IFDs (DNG).
    public static func readGrouped(file path: String) async throws -> [String: Any] {
        let (status, output, errors) = try await run(["-j", "-n", "-G1", "-a", path])
        guard status == 0, let files = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]],
              let tags = files.first else {
            throw Failure(description: "exiftool could not read \(path) (status \(status)): \(errors)")
        }
        return tags
    }

    /// The tags exiftool reads from an in-memory JPEG (written to a temporary file for it).
    public static func read(_ bytes: [UInt8]) async throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("exiftool-\(UUID().uuidString).jpg")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await read(files: [file.path])[file.path] ?? [:]
    }
}
