/// A server that cannot be set up as asked (an address it cannot listen on, a malformed token or
/// limit): the message says what failed, with the value, and what to do.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
