/// A failure of an evaluation's inputs: what failed, with the value, then " — " and what to do.
/// `kind` tells a bad value given (the command line's usage error, exit 2) from a file that cannot
/// be read (a failure at run time, exit 1).
public struct EvaluationError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// A value given is wrong: a scene spec, an algorithm name, a line of a view list.
        case invalidInput
        /// A file could not be read or decoded.
        case unreadable
    }

    public let kind: Kind
    public let message: String

    static func invalidInput(_ message: String) -> EvaluationError { EvaluationError(kind: .invalidInput, message: message) }
    static func unreadable(_ message: String) -> EvaluationError { EvaluationError(kind: .unreadable, message: message) }

    /// The same failure, its message prefixed with where it arose (e.g. "views.txt line 3: ").
    func located(_ place: String) -> EvaluationError { EvaluationError(kind: kind, message: "\(place): \(message)") }

    public var description: String { message }
}
