import Foundation

/// A fresh empty directory for `body`, removed when it returns.
public func withScratchDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let directory = try makeScratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// A fresh empty directory for `body`, removed when it returns.
public func withScratchDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let directory = try makeScratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

private func makeScratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
