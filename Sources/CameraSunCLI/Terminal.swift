import Foundation

/// Where the command line writes: results to stdout, errors and progress to stderr, and a status
/// line rewritten in place when stdout is a terminal.
public struct Terminal: Sendable {
    let stdoutIsTTY: Bool

    init() {
        stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    }

    public func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Replaces the current terminal line with `line` (no newline).
    func status(_ line: String) {
        FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + line).utf8))
    }

    /// A progress reporter for long work: each line replaces the last on the status line, nil
    /// clears it; silent unless `enabled` and stdout is a terminal.
    public func progress(enabled: Bool) -> @Sendable (String?) -> Void {
        guard enabled, stdoutIsTTY else { return { _ in } }
        return { status($0 ?? "") }
    }

    /// Prints one JSON object on a line.
    public func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// A bar of `width` cells filled to `fraction` (0…1).
    static func bar(_ fraction: Double, width: Int = 20) -> String {
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
