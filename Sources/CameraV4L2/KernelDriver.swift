import CameraSystem

/// The real kernel: opens video nodes through CameraSystem, whose `systemCall` retries EINTR,
/// names the request and the device in its `SystemCallError`, and is seen by `SystemCallSeam`.
public struct KernelDriver: V4L2Driver {
    public init() {}

    /// Two: V4L2 does not say which frame a new value reached, and a sensor latches it as a frame
    /// starts — by the time one frame is handed out the next has started, so the one after it
    /// is the first taken with the value.
    public var controlLatencyFrames: UInt64 { 2 }

    /// CLOCK_MONOTONIC, which UVC and most drivers stamp frames with (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC).
    public var clockMicroseconds: Int64 { MonotonicClock.nanoseconds / 1_000 }

    public func open(_ path: String) throws(SystemCallError) -> any V4L2Node {
        KernelNode(try FileDescriptor.open(path, .readWrite, options: .nonBlocking, operation: V4L2Request.open.operation))
    }
}
