import CameraCore
import Foundation

/// Runs a system tool (a test's peer: ffprobe, ffmpeg, sqlite3 …) with no input and returns its
/// exit status, standard output and standard error. The wait runs on a thread of its own
/// (`onOwnThread`), never on the concurrency pool that every other test needs; standard error is
/// read on another while standard output is read there, so a tool that fills either pipe never blocks.
public func runTool(_ path: String, _ arguments: [String]) async throws -> (status: Int32, output: Data, errors: String) {
    try await onOwnThread { try runToolWaiting(path, arguments) }
}

private func runToolWaiting(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorData = Condition<Data?>(nil)
    Thread {
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
    }.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorBytes = errorData.wait { data in data.map { .done($0) } ?? .waitForChange(until: nil) }
    process.waitUntilExit()
    return (process.terminationStatus, outputData, String(decoding: errorBytes, as: UTF8.self))
}
