import Foundation

/// Runs a system tool (a test's peer: ffprobe, ffmpeg, sqlite3 …) with no input and returns its
/// exit status, standard output and standard error (which must stay small: it is read first).
public func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, outputData, String(decoding: errorData, as: UTF8.self))
}
