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
func exiftool(_ paths: [String]) async throws -> [String: [String: Any]] {
    try await ExifTool.read(files: paths)
}

/// A library in `directory`/Library holding one photo, whose catalogue then refuses every new row
/// (as a full disk does at COMMIT), and an empty `directory`/tmp to run the next photo with as
/// TMPDIR, so that its rescue folder is the test's.
func libraryRefusingRows(in directory: URL) async throws -> (library: URL, catalog: String, temporary: URL) {
    let library = directory.appendingPathComponent("Library")
    let first = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--library", library.path] + PhotoEndToEndTests.small)
    try #require(first.exitCode == 0, "\(first)")
    let catalog = library.appendingPathComponent("catalog.sqlite").path
    let trigger = try await runTool("/usr/bin/sqlite3", [catalog, "CREATE TRIGGER refuse_rows BEFORE INSERT ON assets "
        + "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"])
    try #require(trigger.status == 0, "\(trigger.errors)")
    let temporary = directory.appendingPathComponent("tmp", isDirectory: true)
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
    return (library, catalog, temporary)
}
