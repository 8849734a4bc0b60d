import CameraCore
import CameraSystem

/// The `camerasun` command: reads the command name, runs it, and turns errors into the
/// one-line message and exit code of CLI.md.
public enum CommandLineTool {
    /// What `camerasun --version` prints after the name.
    static let version = "0.2.0"

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String]) async -> Int32 {
        await run { terminal in try await dispatch(arguments, terminal: terminal) }
    }

    /// Runs `command` and returns the exit code, its errors reported as for every command: what
    /// `camerasun-bench` runs its suites with.
    public static func run(_ command: (Terminal) async throws -> Void) async -> Int32 {
        FreeMemory.mapLargeBlocks()
        let terminal = Terminal()
        do {
            try await command(terminal)
            return 0
        } catch let error as CLIError {
            terminal.error("camerasun: error: \(error.message)")
            return error.exitCode
        } catch let error as ValueOutOfRangeError {
            terminal.error("camerasun: error: \(error)")
            return 2
        } catch is CancellationError {
            return 130
        } catch {
            terminal.error("camerasun: error: \(error)")
            return 1
        }
    }

    /// Bare `camerasun`, or `camerasun` followed by `serve`'s flags, serves the viewfinder;
    /// `COMMAND --help` is `help COMMAND`.
    private static func dispatch(_ arguments: [String], terminal: Terminal) async throws {
        guard let command = arguments.first, !(command.hasPrefix("--") && !["--help", "--version"].contains(command)) else {
            try await ServeCommand.run(ArgumentList(arguments, command: "serve"), terminal: terminal)
            return
        }
        let rest = Array(arguments.dropFirst())
        if command != "help", rest.contains("--help") || rest.contains("-h") {
            try HelpCommand.run(ArgumentList([command], command: "help"), terminal: terminal)
            return
        }
        switch command {
        case "--version", "version":
            try ArgumentList(rest, command: command).finish()
            terminal.print("camerasun \(version)")
        case "help", "--help", "-h":
            try HelpCommand.run(ArgumentList(rest, command: "help"), terminal: terminal)
        case "serve":
            try await ServeCommand.run(ArgumentList(rest, command: "serve"), terminal: terminal)
        case "devices":
            try DevicesCommand.run(ArgumentList(rest, command: "devices"), terminal: terminal)
        case "scene":
            try await SceneCommand.run(rest, terminal: terminal)
        case "meter":
            try await MeterCommand.run(ArgumentList(rest, command: "meter"), terminal: terminal)
        case "ae-eval":
            try await AEEvalCommand.run(ArgumentList(rest, command: "ae-eval"), terminal: terminal)
        case "hdr-eval":
            try await HDREvalCommand.run(ArgumentList(rest, command: "hdr-eval"), terminal: terminal)
        case "photo":
            try await PhotoCommand.run(ArgumentList(rest, command: "photo"), terminal: terminal)
        case "record":
            try await RecordCommand.run(ArgumentList(rest, command: "record"), terminal: terminal)
        case "stream":
            try await StreamCommand.run(ArgumentList(rest, command: "stream"), terminal: terminal)
        case "library":
            try LibraryCommand.run(rest, terminal: terminal)
        case "bench":
            try BenchCommand.run(rest)
        default:
            throw CLIError.usage("unknown command '\(command)' — run 'camerasun help' for the list of commands")
        }
    }
}
