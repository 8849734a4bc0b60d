/// A frame that never reached an output's consumer, and why. Each dropped frame is reported once.
public struct DroppedFrame: Sendable, Hashable {
    public let reason: FrameDropReason
    /// The frame's sequence number: known for `late` frames and for the frames missing from a
    /// `discontinuity`; nil for `outOfBuffers`, which a device reports without a number.
    public let sequenceNumber: UInt64?

    public init(reason: FrameDropReason, sequenceNumber: UInt64?) {
        self.reason = reason
        self.sequenceNumber = sequenceNumber
    }
}
