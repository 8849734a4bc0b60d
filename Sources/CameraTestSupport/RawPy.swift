import Foundation

/// rawpy (LibRaw for Python), the DNG tests' independent reader: Tests/Python/dng_peer.py run by
/// the venv `make deps` makes (.venv-test, from Tests/Python/requirements.txt).
public enum RawPy {
    /// rawpy was missing or failed; the message says what to do.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let python = root.appendingPathComponent(".venv-test/bin/python").path
    static let script = root.appendingPathComponent("Tests/Python/dng_peer.py").path

    /// What `dng_peer.py <command> <arguments>` prints, as a JSON object.
    public static func run(_ command: String, _ arguments: [String]) async throws -> [String: Any] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "\(python) is missing — run make deps (creates the .venv-test venv with rawpy)")
        }
        let (status, output, errors) = try await runTool(python, [script, command] + arguments)
        guard status == 0, let result = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw Failure(description: "rawpy could not \(command) \(arguments.joined(separator: " ")) (status \(status)): \(errors)")
        }
        return result
    }
}
