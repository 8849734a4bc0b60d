internal import CV4L2
import CameraCore

/// A V4L2 pixel format code: four ASCII characters packed little-endian, as `v4l2_fourcc` makes
/// them (e.g. "YUYV").
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packed 4:2:2 Y0 Cb Y1 Cr. The corresponding C constant is `V4L2_PIX_FMT_YUYV`.
    public static let yuyv = FourCC(rawValue: cv4l2_pix_fmt_yuyv)
    /// A Y plane then interleaved CbCr at half resolution. The corresponding C constant is `V4L2_PIX_FMT_NV12`.
    public static let nv12 = FourCC(rawValue: cv4l2_pix_fmt_nv12)
    /// 8-bit luma only. The corresponding C constant is `V4L2_PIX_FMT_GREY`.
    public static let grey = FourCC(rawValue: cv4l2_pix_fmt_grey)
    /// Motion JPEG. The corresponding C constant is `V4L2_PIX_FMT_MJPEG`.
    public static let mjpeg = FourCC(rawValue: cv4l2_pix_fmt_mjpeg)
    /// JPEG frames, as some drivers name MJPEG. The corresponding C constant is `V4L2_PIX_FMT_JPEG`.
    public static let jpeg = FourCC(rawValue: cv4l2_pix_fmt_jpeg)

    /// 8-bit Bayer, RGGB order. The corresponding C constant is `V4L2_PIX_FMT_SRGGB8`.
    public static let srggb8 = FourCC(rawValue: cv4l2_pix_fmt_srggb8)
    /// 10-bit Bayer, RGGB order, one little-endian 16-bit word per sample. The corresponding C
    /// constant is `V4L2_PIX_FMT_SRGGB10`.
    public static let srggb10 = FourCC(rawValue: cv4l2_pix_fmt_srggb10)
    /// 12-bit Bayer, RGGB order, in 16-bit words. The corresponding C constant is `V4L2_PIX_FMT_SRGGB12`.
    public static let srggb12 = FourCC(rawValue: cv4l2_pix_fmt_srggb12)
    /// 16-bit Bayer, RGGB order. The corresponding C constant is `V4L2_PIX_FMT_SRGGB16`.
    public static let srggb16 = FourCC(rawValue: cv4l2_pix_fmt_srggb16)

    /// The codes CameraSun takes, with the buffer format frames of each become: YUYV, NV12 and
    /// GREY are copied as they are; MJPEG and JPEG are decoded by libjpeg-turbo into bgra8, its
    /// fastest output (its colour conversion costs about a tenth of the decode); unpacked RGGB
    /// Bayer is copied into bayer16 (8-bit samples widened), raw frames CameraSun develops.
    static let supported: [(code: FourCC, format: PixelFormat)] = [
        (.yuyv, .yuyv422), (.nv12, .nv12(.video)), (.grey, .gray8), (.mjpeg, .bgra8), (.jpeg, .bgra8),
        (.srggb8, .bayer16(.rggb, significantBits: 8)), (.srggb10, .bayer16(.rggb, significantBits: 10)),
        (.srggb12, .bayer16(.rggb, significantBits: 12)), (.srggb16, .bayer16(.rggb, significantBits: 16)),
    ]

    /// The buffer format frames of this code become, or nil when CameraSun cannot take them.
    public var pixelFormat: PixelFormat? { Self.supported.first { $0.code == self }?.format }

    /// The codes CameraSun takes, as an error lists them: "YUYV, NV12, GREY, MJPG, JPEG, RGGB,
    /// RG10, RG12 or RG16; Bayer only in RGGB order and unpacked, not packed MIPI formats such as pRAA".
    static var supportedList: String {
        supported.map(\.code.description).joined(separator: ", ", last: " or ")
            + "; Bayer only in RGGB order and unpacked, not packed MIPI formats such as pRAA"
    }

    /// The bytes one pixel takes in a row of the driver's buffer (of the Y plane for NV12); 0 for
    /// JPEG, which has no rows.
    public var bytesPerPixel: Int {
        switch self {
        case .mjpeg, .jpeg: 0
        case .yuyv, .srggb10, .srggb12, .srggb16: 2
        default: 1
        }
    }

    /// Whether frames of this code are JPEG images to decode rather than rows to copy.
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// The four characters, e.g. "NV12".
    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> ($0 * 8)) }, as: UTF8.self)
    }
}
