/// A viewfinder server that cannot be set up as asked: the message says what failed, with the
/// value, and what to do.
public struct ViewfinderError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
