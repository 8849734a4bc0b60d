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

    /// The codes CameraSun takes, with the buffer format frames of each become: YUYV, NV12 and
    /// GREY are copied as they are; MJPEG and JPEG are decoded by libjpeg-turbo into bgra8, its
    /// fastest output (its colour conversion costs about a tenth of the decode).
    static let supported: [(code: FourCC, format: PixelFormat)] = [
        (.yuyv, .yuyv422), (.nv12, .nv12(.video)), (.grey, .gray8), (.mjpeg, .bgra8), (.jpeg, .bgra8),
    ]

    /// The buffer format frames of this code become, or nil when CameraSun cannot take them.
    public var pixelFormat: PixelFormat? { Self.supported.first { $0.code == self }?.format }

    /// The codes CameraSun takes, as an error lists them: "YUYV, NV12, GREY, MJPG or JPEG".
    static var supportedList: String { supported.map(\.code.description).joined(separator: ", ", last: " or ") }

    /// Whether frames of this code are JPEG images to decode rather than rows to copy.
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// The four characters, e.g. "NV12".
    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> ($0 * 8)) }, as: UTF8.self)
    }
}
