/// Why a microphone could not be opened or read, or an `--audio` choice not understood: what
/// failed, with the value, then " — " and what to do.
public struct AudioError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
