/// Entry point of the `camerasun` command.
public enum CommandLineTool {
    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String]) async -> Int32 { 0 }
}
