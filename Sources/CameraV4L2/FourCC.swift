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
    /// 8-bit Bayer, GRBG order. The corresponding C constant is `V4L2_PIX_FMT_SGRBG8`.
    public static let sgrbg8 = FourCC(rawValue: cv4l2_pix_fmt_sgrbg8)
    /// 8-bit Bayer, GBRG order. The corresponding C constant is `V4L2_PIX_FMT_SGBRG8`.
    public static let sgbrg8 = FourCC(rawValue: cv4l2_pix_fmt_sgbrg8)
    /// 8-bit Bayer, BGGR order. The corresponding C constant is `V4L2_PIX_FMT_SBGGR8`.
    public static let sbggr8 = FourCC(rawValue: cv4l2_pix_fmt_sbggr8)
    /// 10-bit Bayer, RGGB order. The corresponding C constant is `V4L2_PIX_FMT_SRGGB10`.
    public static let srggb10 = FourCC(rawValue: cv4l2_pix_fmt_srggb10)
    /// 10-bit Bayer, GRBG order. The corresponding C constant is `V4L2_PIX_FMT_SGRBG10`.
    public static let sgrbg10 = FourCC(rawValue: cv4l2_pix_fmt_sgrbg10)
    /// 10-bit Bayer, GBRG order. The corresponding C constant is `V4L2_PIX_FMT_SGBRG10`.
    public static let sgbrg10 = FourCC(rawValue: cv4l2_pix_fmt_sgbrg10)
    /// 10-bit Bayer, BGGR order. The corresponding C constant is `V4L2_PIX_FMT_SBGGR10`.
    public static let sbggr10 = FourCC(rawValue: cv4l2_pix_fmt_sbggr10)
    /// 12-bit Bayer, RGGB order. The corresponding C constant is `V4L2_PIX_FMT_SRGGB12`.
    public static let srggb12 = FourCC(rawValue: cv4l2_pix_fmt_srggb12)
    /// 12-bit Bayer, GRBG order. The corresponding C constant is `V4L2_PIX_FMT_SGRBG12`.
    public static let sgrbg12 = FourCC(rawValue: cv4l2_pix_fmt_sgrbg12)
    /// 12-bit Bayer, GBRG order. The corresponding C constant is `V4L2_PIX_FMT_SGBRG12`.
    public static let sgbrg12 = FourCC(rawValue: cv4l2_pix_fmt_sgbrg12)
    /// 12-bit Bayer, BGGR order. The corresponding C constant is `V4L2_PIX_FMT_SBGGR12`.
    public static let sbggr12 = FourCC(rawValue: cv4l2_pix_fmt_sbggr12)
    /// 16-bit Bayer, RGGB order. The corresponding C constant is `V4L2_PIX_FMT_SRGGB16`.
    public static let srggb16 = FourCC(rawValue: cv4l2_pix_fmt_srggb16)
    /// 16-bit Bayer, GRBG order. The corresponding C constant is `V4L2_PIX_FMT_SGRBG16`.
    public static let sgrbg16 = FourCC(rawValue: cv4l2_pix_fmt_sgrbg16)
    /// 16-bit Bayer, GBRG order. The corresponding C constant is `V4L2_PIX_FMT_SGBRG16`.
    public static let sgbrg16 = FourCC(rawValue: cv4l2_pix_fmt_sgbrg16)
    /// 16-bit Bayer, BGGR order. The corresponding C constant is `V4L2_PIX_FMT_SBGGR16`.
    public static let sbggr16 = FourCC(rawValue: cv4l2_pix_fmt_sbggr16)

    /// The codes CameraSun takes, with the buffer format frames of each become: YUYV, NV12 and
    /// GREY are copied as they are; MJPEG and JPEG are decoded by libjpeg-turbo into bgra8, its
    /// fastest output (its colour conversion costs about a tenth of the decode); unpacked Bayer
    /// is copied into bayer16 of its order and bit depth (8-bit samples widened): raw frames,
    /// which CameraSun develops. Packed Bayer (MIPI's 10 and 12 bits in 5 and 3 bytes) is not taken.
    static let supported: [(code: FourCC, format: PixelFormat)] = [
        (.yuyv, .yuyv422), (.nv12, .nv12(.video)), (.grey, .gray8), (.mjpeg, .bgra8), (.jpeg, .bgra8),
        (.srggb8, .bayer16(.rggb, significantBits: 8)), (.sgrbg8, .bayer16(.grbg, significantBits: 8)),
        (.sgbrg8, .bayer16(.gbrg, significantBits: 8)), (.sbggr8, .bayer16(.bggr, significantBits: 8)),
        (.srggb10, .bayer16(.rggb, significantBits: 10)), (.sgrbg10, .bayer16(.grbg, significantBits: 10)),
        (.sgbrg10, .bayer16(.gbrg, significantBits: 10)), (.sbggr10, .bayer16(.bggr, significantBits: 10)),
        (.srggb12, .bayer16(.rggb, significantBits: 12)), (.sgrbg12, .bayer16(.grbg, significantBits: 12)),
        (.sgbrg12, .bayer16(.gbrg, significantBits: 12)), (.sbggr12, .bayer16(.bggr, significantBits: 12)),
        (.srggb16, .bayer16(.rggb, significantBits: 16)), (.sgrbg16, .bayer16(.grbg, significantBits: 16)),
        (.sgbrg16, .bayer16(.gbrg, significantBits: 16)), (.sbggr16, .bayer16(.bggr, significantBits: 16)),
    ]

    /// The buffer format frames of this code become, or nil when CameraSun cannot take them.
    public var pixelFormat: PixelFormat? { Self.supported.first { $0.code == self }?.format }

    /// The codes CameraSun takes, as an error lists them: "YUYV, NV12, GREY, MJPG, JPEG, RGGB, …
    /// or BYR2; Bayer unpacked only, not packed MIPI formats such as pRAA".
    static var supportedList: String {
        supported.map(\.code.description).joined(separator: ", ", last: " or ")
            + "; Bayer unpacked only, not packed MIPI formats such as pRAA"
    }

    /// The bytes one pixel takes in a row of the driver's buffer (of the Y plane for NV12); 0 for
    /// JPEG, which has no rows.
    public var bytesPerPixel: Int {
        if isJPEG { return 0 }
        if self == .yuyv { return 2 }
        if case .bayer16(_, let bits)? = pixelFormat, bits > 8 { return 2 }
        return 1
    }

    /// Whether frames of this code are JPEG images to decode rather than rows to copy.
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// The four characters, e.g. "NV12".
    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> ($0 * 8)) }, as: UTF8.self)
    }
}
