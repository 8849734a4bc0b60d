import CameraCore
import CameraSystem

/// The kernel as a `V4L2Camera` sees it: the one seam between the camera and the system, so that
/// tests put a scripted driver (CameraTestSupport's `ScriptedV4L2Driver`) where the kernel is.
/// `KernelDriver` is the real one; it makes every call through CameraSystem.
public protocol V4L2Driver: Sendable {
    /// Opens the video node at `path` for reading and writing, non-blocking (open(2) with
    /// `O_RDWR | O_NONBLOCK`).
    func open(_ path: String) throws(SystemCallError) -> any V4L2Node

    /// How many frames on a control reaches the frames: a value set after frame n is in frame
    /// n + this. Frames are stamped with the values they were taken with (`V4L2ControlPipeline`).
    var controlLatencyFrames: UInt64 { get }

    /// Now, in microseconds on the clock the driver stamps frames with (CLOCK_MONOTONIC): a
    /// control set this long after a frame's stamp reaches a frame that much later in the stream.
    var clockMicroseconds: Int64 { get }
}

/// One open video node and the requests a camera makes of it, each answering as the kernel
/// documents: an enumeration past its last entry throws EINVAL, a control the node lacks throws
/// EINVAL, DQBUF with no frame ready throws EAGAIN, an unplugged device throws ENODEV.
///
/// The node is closed (close(2)) when the last reference to it goes; a mapped buffer holds one,
/// so buffers are always unmapped before their node closes.
public protocol V4L2Node: AnyObject, Sendable {
    /// The path it was opened with, e.g. "/dev/video0".
    var path: String { get }

    /// VIDIOC_QUERYCAP.
    func queryCapabilities() throws(SystemCallError) -> V4L2Capabilities
    /// VIDIOC_ENUM_FMT for video capture.
    func formatDescription(at index: Int) throws(SystemCallError) -> V4L2FormatDescription
    /// VIDIOC_ENUM_FRAMESIZES.
    func frameSize(at index: Int, of code: FourCC) throws(SystemCallError) -> V4L2FrameSize
    /// VIDIOC_ENUM_FRAMEINTERVALS.
    func frameInterval(at index: Int, of code: FourCC, size: PixelSize) throws(SystemCallError) -> V4L2FrameInterval
    /// VIDIOC_S_FMT for video capture; returns the format the driver chose.
    func setFormat(_ format: V4L2ImageFormat) throws(SystemCallError) -> V4L2ImageFormat
    /// VIDIOC_S_PARM's `timeperframe`; returns the interval the driver chose.
    func setFrameInterval(_ interval: V4L2Fraction) throws(SystemCallError) -> V4L2Fraction
    /// VIDIOC_REQBUFS of `count` mmap buffers; returns how many the driver allocated.
    func requestBuffers(_ count: Int) throws(SystemCallError) -> Int
    /// VIDIOC_QUERYBUF of an mmap buffer.
    func queryBuffer(_ index: Int) throws(SystemCallError) -> V4L2BufferLocation
    /// mmap(2) of a buffer, shared, for reading.
    func map(_ buffer: V4L2BufferLocation) throws(SystemCallError) -> any V4L2MappedBuffer
    /// VIDIOC_QBUF of an mmap buffer.
    func queueBuffer(_ index: Int) throws(SystemCallError)
    /// VIDIOC_DQBUF of an mmap buffer.
    func dequeueBuffer() throws(SystemCallError) -> V4L2FilledBuffer
    /// VIDIOC_STREAMON for video capture.
    func streamOn() throws(SystemCallError)
    /// VIDIOC_STREAMOFF for video capture: every buffer leaves the driver's queues.
    func streamOff() throws(SystemCallError)
    /// poll(2) for a frame (`POLLIN`) for up to `timeoutMilliseconds`; empty on a timeout.
    func poll(timeoutMilliseconds: Int32) throws(SystemCallError) -> PollEvents
    /// VIDIOC_QUERYCTRL; a menu control's range has an empty `menu`.
    func queryControl(_ id: V4L2ControlID) throws(SystemCallError) -> V4L2ControlRange
    /// VIDIOC_QUERYMENU: the name of entry `index` of a menu control; EINVAL for an entry the
    /// driver does not offer (drivers leave gaps: a UVC camera's `auto_exposure` often lists only
    /// 1, manual, and 3, aperture priority).
    func menuEntry(_ id: V4L2ControlID, at index: Int32) throws(SystemCallError) -> String
    /// VIDIOC_G_CTRL.
    func control(_ id: V4L2ControlID) throws(SystemCallError) -> Int32
    /// VIDIOC_S_CTRL.
    func setControl(_ id: V4L2ControlID, to value: Int32) throws(SystemCallError)
}

/// A driver buffer mapped into memory; unmapped (munmap(2)) when released.
public protocol V4L2MappedBuffer: AnyObject, Sendable {
    var bytes: UnsafeMutableRawBufferPointer { get }
}
