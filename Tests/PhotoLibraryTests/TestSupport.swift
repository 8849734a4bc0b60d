import Foundation
@testable import PhotoLibrary
import Testing

/// A test failure with a message of its own.
struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// A fresh empty directory, removed with everything in it when `body` returns.
func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("camerasun-library-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A library in a fresh directory (dated folders in UTC), removed when `body` returns.
func withLibrary<R>(
    capacity: (any VolumeCapacityProvider)? = nil, _ body: (PhotoLibrary) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { directory in
        let library = try PhotoLibrary(directory: directory.appendingPathComponent("Library"), timeZone: .gmt,
                                       capacityProvider: capacity ?? SystemVolumeCapacity())
        return try await body(library)
    }
}

/// A volume that reports fixed figures, for full and read-only disks without mounting one.
struct FixedCapacity: VolumeCapacityProvider {
    let capacity: VolumeCapacity

    func capacity(ofVolumeAt directory: String) throws(PhotoLibraryError) -> VolumeCapacity { capacity }
}

/// Builds JPEG byte streams marker by marker: enough structure for the library's checks (SOI, an
/// APP0, a frame header with the dimensions, a scan, EOI); not a decodable image.
enum JPEGBytes {
    /// A baseline (SOF0) or progressive (SOF2) JPEG of `width`×`height` with `scanLength` bytes
    /// of entropy-coded data, optionally preceded by an APP1 segment carrying `app1`.
    static func make(width: Int, height: Int, progressive: Bool = false, scanLength: Int = 200,
                     app1: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        if !app1.isEmpty { bytes += segment(0xE1, app1) }
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(progressive ? 0xC2 : 0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
        bytes += segment(0xC4, [0] + [UInt8](repeating: 0, count: 16))
        bytes += segment(0xDA, [1, 1, 0, 0, 63, 0])
        bytes += (0..<scanLength).map { UInt8($0 % 251) }
        return bytes + [0xFF, 0xD9]
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}

/// Runs `executable` with `arguments`; its standard output, or a failure naming the command.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        throw Failure(description: "\(executable) is missing — run make deps")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return text
}

/// The relative paths of every file under `directory` (hidden ones included), sorted.
func allFiles(under directory: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory),
           !isDirectory.boolValue {
            files.append(path)
        }
    }
    return files.sorted()
}

/// The digest `/usr/bin/sha256sum` prints for `bytes`.
func sha256sum(_ bytes: [UInt8]) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-sha-\(UUID().uuidString)")
    try Data(bytes).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return String(try run("/usr/bin/sha256sum", [file.path]).prefix(64))
}
