import CameraEvaluation

/// A failure the command line reports as `camerasun: error: <message>` with an exit code:
/// 2 for bad usage, 1 for a failure at run time.
public struct CLIError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable {
        case usage, runtime
    }

    public let kind: Kind
    /// What failed, with the value, then " — " and what to do.
    public let message: String

    public static func usage(_ message: String) -> CLIError { CLIError(kind: .usage, message: message) }
    public static func runtime(_ message: String) -> CLIError { CLIError(kind: .runtime, message: message) }

    public var exitCode: Int32 { kind == .usage ? 2 : 1 }
    public var description: String { message }
}

extension CLIError {
    /// An evaluation's failure on the command line: a bad value given is a usage error, a file
    /// that cannot be read a failure at run time.
    init(_ error: EvaluationError) {
        self.init(kind: error.kind == .invalidInput ? .usage : .runtime, message: error.message)
    }
}
