@testable import CameraSunCLI
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// Every numeric flag of every command fed the values that trap arithmetic (a conversion to a whole
/// number, a `Duration`, a byte count): each must end in a usage error or a normal run, never a
/// crash (an exit code of 128 or more, or death by a signal). The flags are read from the help
/// pages, so a flag documented later is covered without touching this test.
@Suite("Numeric flags never crash", .serialized)
struct NumericFlagTests {
    static let values = ["0", "-1", "1e-9", "1e300", "9223372036854775808", "nan", "inf", "9223372036854776"]

    /// Placeholders of flags whose value is a name, a path or an address, not a number.
    static let textPlaceholders: Set<String> = ["SPEC", "DIR", "HOST:PORT", "T", "TEXT", "LIST", "M"]

    /// The flags documented with a numeric value in `text`: `--width W`, `--beauty 0…1`, `--bracket EV,EV[,…]`.
    static func numericFlags(in text: String) -> Set<String> {
        let pattern = /--([a-z][a-z0-9-]*)[ =]\[?([A-Z][^\s\]|]*|[0-9−-]+…[0-9]+)/
        return Set(text.matches(of: pattern).compactMap { match in
            let placeholder = String(match.output.2)
            return textPlaceholders.contains(placeholder) || placeholder.contains(".") ? nil : String(match.output.1)
        })
    }

    /// The capture flags (help's overview), read by one `CaptureFlags` for every command that takes
    /// them: checked under `meter`, whose `--frames 1` ends a valid run at once.
    static let captureFlags: Set<String> = {
        let overview = HelpCommand.overview
        return numericFlags(in: String(overview[overview.range(of: "capture flags")!.lowerBound...]))
    }()

    /// Arguments that make a valid run of each command short: the flag tested replaces its own here.
    static func bounded(_ command: String, scratch: URL) -> [String] {
        let library = scratch.appendingPathComponent("library").path
        let camera = ["--source", "sim:backlit-portrait", "--width", "160", "--height", "90"]
        return switch command {
        case "serve": ["--listen", "127.0.0.1:0", "--library", library] + camera
        case "meter": ["--frames", "1"] + camera
        case "photo": ["--count", "1", "--library", library] + camera
        case "record": ["--duration", "0.2", "--audio", "none", "--library", library] + camera
        case "stream": ["--to", "rtmp://127.0.0.1:1/live/key", "--duration", "0.2", "--audio", "none"] + camera
        case "scene": ["render", "backlit-portrait", "--out", scratch.appendingPathComponent("scene.png").path, "--width", "64", "--height", "36"]
        case "ae-eval": ["--scenes", "backlit-portrait", "--algorithms", "naive", "--frames", "2", "--width", "64", "--height", "36"]
        case "hdr-eval": ["--scenes", "backlit-portrait", "--width", "64", "--height", "36"]
        case "bench": ["sim", "--frames", "1"]
        case "library": ["list", "--library", library]
        default: []
        }
    }

    /// Each command's numeric flags; the capture flags under `meter` alone.
    static func flags(of command: String) -> [String] {
        let help = HelpCommand.commands[command] ?? ""
        var flags = numericFlags(in: help)
        if help.contains("capture flags") { flags.subtract(captureFlags) }
        if command == "meter" { flags.formUnion(captureFlags) }
        return flags.sorted()
    }

    @Test("The help pages yield the numeric flags that crashed before, and the capture flags")
    func flagsAreFound() {
        #expect(Self.flags(of: "record").contains("max-size") && Self.flags(of: "record").contains("min-free"))
        #expect(Self.flags(of: "stream") == ["bitrate", "duration"])
        #expect(Self.captureFlags.isSuperset(of: ["width", "height", "framerate", "seed", "lens-position"]))
        #expect(!Self.flags(of: "serve").contains("library") && !Self.flags(of: "serve").contains("listen"))
    }

    @Test("0, -1, 1e-9, 1e300, 2^63, nan, inf and 9223372036854776 for each numeric flag: exit code below 128",
          arguments: HelpCommand.commands.keys.filter { $0 != "help" }.sorted())
    func noCrash(command: String) async throws {
        let binary = try #require(ServeProcess.releaseBinary ?? CameraSunBinary.url, "camerasun binary not found — run 'swift build' first")
        try await withScratchDirectory { scratch in
            for flag in Self.flags(of: command) {
                var arguments = Self.bounded(command, scratch: scratch)
                if let index = arguments.firstIndex(of: "--\(flag)") { arguments.removeSubrange(index...(index + 1)) }
                for value in Self.values {
                    let run = [command] + arguments + ["--\(flag)", value]
                    let ending = try await Self.ending(of: binary, run, in: scratch)
                    #expect(ending.signal == nil && ending.status < 128, "camerasun \(run.joined(separator: " ")): \(ending)")
                }
            }
        }
    }

    /// How a run ended: its exit status, or the signal that killed it; a server that prints its URL
    /// has started well and is ended there (SIGKILL, not counted as a crash).
    struct Ending: CustomStringConvertible {
        var status: Int32 = 0
        var signal: Int32?
        var errors = ""

        var description: String { (signal.map { "signal \($0)" } ?? "exit \(status)") + ", stderr: \(errors.suffix(600))" }
    }

    static func ending(of binary: URL, _ arguments: [String], in directory: URL) async throws -> Ending {
        try await onOwnThread {
            let output = directory.appendingPathComponent("stdout"), errors = directory.appendingPathComponent("stderr")
            for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            var served = false
            let deadline = Date(timeIntervalSinceNow: 120)
            while process.isRunning, Date() < deadline {
                if String(decoding: try Data(contentsOf: output), as: UTF8.self).contains("viewfinder: http") {
                    served = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                var ending = Ending(errors: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
                if !served { ending.signal = SIGKILL }  // still running after two minutes: a hang, not a start
                return ending
            }
            let text = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
            return process.terminationReason == .uncaughtSignal ? Ending(signal: process.terminationStatus, errors: text)
                : Ending(status: process.terminationStatus, errors: text)
        }
    }
}
