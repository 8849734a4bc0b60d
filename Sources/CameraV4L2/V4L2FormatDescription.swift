/// One pixel format a node offers, as VIDIOC_ENUM_FMT lists it (`struct v4l2_fmtdesc`).
public struct V4L2FormatDescription: Sendable, Hashable {
    public var code: FourCC
    /// The driver's name for it, e.g. "YUYV 4:2:2".
    public var name: String
    /// Whether frames are compressed (MJPEG, H.264). The corresponding C constant is `V4L2_FMT_FLAG_COMPRESSED`.
    public var isCompressed: Bool

    public init(code: FourCC, name: String, isCompressed: Bool = false) {
        self.code = code
        self.name = name
        self.isCompressed = isCompressed
    }
}
