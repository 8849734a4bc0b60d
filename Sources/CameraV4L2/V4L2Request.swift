/// The requests a V4L2 camera makes of its driver, each with the kernel's name for it (what a
/// scripted driver logs) and the verb phrase its `SystemCallError` reads, so the real and the
/// scripted driver fail with the same words: "cannot start streaming on /dev/video0: …".
public enum V4L2Request: String, Sendable, Hashable, CaseIterable {
    case open, mmap, poll
    case queryCapabilities = "VIDIOC_QUERYCAP"
    case enumerateFormat = "VIDIOC_ENUM_FMT"
    case enumerateFrameSizes = "VIDIOC_ENUM_FRAMESIZES"
    case enumerateFrameIntervals = "VIDIOC_ENUM_FRAMEINTERVALS"
    case setFormat = "VIDIOC_S_FMT"
    case setStreamParameters = "VIDIOC_S_PARM"
    case requestBuffers = "VIDIOC_REQBUFS"
    case queryBuffer = "VIDIOC_QUERYBUF"
    case queueBuffer = "VIDIOC_QBUF"
    case dequeueBuffer = "VIDIOC_DQBUF"
    case streamOn = "VIDIOC_STREAMON"
    case streamOff = "VIDIOC_STREAMOFF"
    case queryControl = "VIDIOC_QUERYCTRL"
    case queryMenu = "VIDIOC_QUERYMENU"
    case getControl = "VIDIOC_G_CTRL"
    case setControl = "VIDIOC_S_CTRL"

    /// What the request does, as the verb phrase of "cannot OPERATION PATH".
    public var operation: String {
        switch self {
        case .open: "open"
        case .mmap: "map a buffer of"
        case .poll: "wait for a frame from"
        case .queryCapabilities: "query the capabilities of"
        case .enumerateFormat: "list the formats of"
        case .enumerateFrameSizes: "list the frame sizes of"
        case .enumerateFrameIntervals: "list the frame rates of"
        case .setFormat: "set the format of"
        case .setStreamParameters: "set the frame rate of"
        case .requestBuffers: "allocate buffers on"
        case .queryBuffer: "locate a buffer of"
        case .queueBuffer: "queue a buffer on"
        case .dequeueBuffer: "take a frame from"
        case .streamOn: "start streaming on"
        case .streamOff: "stop streaming on"
        case .queryControl: "query a control of"
        case .queryMenu: "list a control's menu on"
        case .getControl: "read a control of"
        case .setControl: "set a control of"
        }
    }
}
