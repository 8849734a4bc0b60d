import Foundation

/// A fresh empty directory, removed with everything in it when `body` returns.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-system-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
}

/// The bytes of the file at `path`.
func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
