/// Where VIDIOC_QUERYBUF says a driver buffer lies (`struct v4l2_buffer` of an mmap buffer): the
/// offset to map it at and its length.
public struct V4L2BufferLocation: Sendable, Hashable {
    public var index: Int
    /// The `offset` to give mmap(2) (`m.offset`).
    public var offset: Int64
    public var length: Int

    public init(index: Int, offset: Int64, length: Int) {
        self.index = index
        self.offset = offset
        self.length = length
    }
}

/// A buffer VIDIOC_DQBUF hands back with a frame in it (`struct v4l2_buffer`).
public struct V4L2FilledBuffer: Sendable, Hashable {
    public var index: Int
    /// Bytes of the frame in the buffer.
    public var bytesUsed: Int
    /// The driver's frame counter since the stream started (`sequence`).
    public var sequence: UInt32
    /// When the frame was captured, in microseconds of the monotonic clock (`timestamp`).
    public var timestampMicroseconds: Int64
    /// The frame is corrupt (a USB transfer lost data). The corresponding C constant is `V4L2_BUF_FLAG_ERROR`.
    public var hasError: Bool

    public init(index: Int, bytesUsed: Int, sequence: UInt32, timestampMicroseconds: Int64, hasError: Bool = false) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.sequence = sequence
        self.timestampMicroseconds = timestampMicroseconds
        self.hasError = hasError
    }
}
