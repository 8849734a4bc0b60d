/// What VIDIOC_QUERYCAP says a video node is (`struct v4l2_capability`): its driver, its name and
/// what it can do — the device's own capabilities when the driver reports them per node.
public struct V4L2Capabilities: Sendable, Hashable {
    /// The kernel driver's name, e.g. "uvcvideo" or "vivid".
    public var driver: String
    /// The device's name, e.g. "HD Pro Webcam C920".
    public var card: String
    /// Where it is attached, e.g. "usb-0000:00:14.0-1".
    public var busInfo: String
    public var flags: Flags

    public init(driver: String, card: String, busInfo: String, flags: Flags) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.flags = flags
    }

    /// The capability bits CameraSun needs.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Single-planar video capture. The corresponding C constant is `V4L2_CAP_VIDEO_CAPTURE`.
        public static let videoCapture = Flags(rawValue: 0x0000_0001)
        /// Streaming I/O (mmap buffers). The corresponding C constant is `V4L2_CAP_STREAMING`.
        public static let streaming = Flags(rawValue: 0x0400_0000)
    }

    /// Whether CameraSun can capture from the node: video capture with streaming I/O.
    public var isStreamingCapture: Bool { flags.isSuperset(of: [.videoCapture, .streaming]) }
}
