/// Why a `FrameSequence` asked of a stream was not taken, in words that say what did not happen.
public struct FrameRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The stream cannot take it: what it lacks and what to do instead.
        case unsupported
        /// The stream ended, or stalled past the request's time limit, before its frames came.
        case noFrames
        /// The sequence's frames did not come as it asked (`SequenceStep.failed`).
        case sequenceFailed
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        (self.reason, self.message) = (reason, message)
    }

    public var description: String { message }
}
