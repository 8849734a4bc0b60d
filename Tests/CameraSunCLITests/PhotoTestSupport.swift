import CameraTestSupport
import Foundation
import Testing

// Helpers for the `camerasun photo` end-to-end tests.

/// The files under `directory`, as paths relative to it, sorted.
func files(under directory: URL) -> [String] {
    let prefix = directory.standardizedFileURL.path + "/"
    let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    return (enumerator?.allObjects as? [URL] ?? [])
        .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        .map { String($0.standardizedFileURL.path.dropFirst(prefix.count)) }
        .sorted()
}

/// `camerasun library VERB --library DIRECTORY --json`: the result and its JSON object.
func libraryCommand(_ verb: String, _ directory: URL) async throws -> (result: CommandResult, json: [String: Any]) {
    let result = try await CameraSunBinary.run(["library", verb, "--library", directory.path, "--json"])
    return (result, try result.jsonObject())
}

/// What exiftool (`-j -n`: numbers as numbers) reads from `paths`, keyed by file path.
func exiftool(_ paths: [String]) throws -> [String: [String: Any]] {
    try ExifTool.read(files: paths)
}
