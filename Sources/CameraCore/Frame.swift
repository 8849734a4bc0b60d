/// One image from a camera, with when it was taken and the settings that produced it.
public struct Frame: Sendable {
    public let buffer: PixelBuffer
    /// When the exposure of the frame's first row started, on the source's timeline.
    public let presentationTime: MediaTime
    /// Counts frames from 0 at the start of capture; a gap means frames were dropped.
    public let sequenceNumber: UInt64
    /// The settings actually used for this frame (not merely the last ones requested).
    public let metadata: FrameMetadata

    public init(buffer: PixelBuffer, presentationTime: MediaTime, sequenceNumber: UInt64, metadata: FrameMetadata) {
        self.buffer = buffer
        self.presentationTime = presentationTime
        self.sequenceNumber = sequenceNumber
        self.metadata = metadata
    }

    /// The same frame in a buffer of its own: for a frame kept past the next few, whose buffer
    /// would otherwise stay out of its device's small pool (which then drops frames).
    public func copied() -> Frame {
        Frame(buffer: buffer.copy(), presentationTime: presentationTime, sequenceNumber: sequenceNumber, metadata: metadata)
    }
}
