/// The quantisation range of Y'CbCr samples: video range puts black at 16 and white at 235 (chroma
/// 16…240); full range uses 0…255.
public enum YCbCrRange: String, Sendable, Hashable, CaseIterable {
    case video, full
}

/// The colour filter order of a Bayer mosaic's top-left 2×2 cell, row by row.
public enum BayerPattern: String, Sendable, Hashable, CaseIterable {
    case rggb, grbg, gbrg, bggr

    /// The column and row of the red sample in the 2×2 cell; blue is diagonal from it, green on
    /// the other two. Every order is RGGB shifted by this much: the colour at (x, y) is RGGB's at
    /// (x + redSite.x, y + redSite.y).
    public var redSite: (x: Int, y: Int) {
        switch self {
        case .rggb: (0, 0)
        case .grbg: (1, 0)
        case .gbrg: (0, 1)
        case .bggr: (1, 1)
        }
    }
}

/// The memory layout of a `PixelBuffer`.
public enum PixelFormat: Sendable, Hashable {
    /// 8-bit blue, green, red, alpha, one plane.
    case bgra8
    /// 8-bit Y plane followed by an interleaved CbCr plane at half resolution in both directions.
    case nv12(YCbCrRange)
    /// 8-bit packed Y0 Cb Y1 Cr, chroma at half horizontal resolution (V4L2's YUYV).
    case yuyv422
    /// 8-bit luma only.
    case gray8
    /// Raw sensor samples, one 16-bit little-endian word per pixel holding `significantBits` bits:
    /// 8 (widened from a V4L2 camera's bytes) or 10 to 12 from a sensor, 16 from a merged bracket
    /// (values above the white level kept) or a 16-bit sensor.
    case bayer16(BayerPattern, significantBits: Int)

    /// Every format a buffer can have, for listings and tests.
    public static let all: [PixelFormat] = [
        .bgra8, .nv12(.video), .nv12(.full), .yuyv422, .gray8, .bayer16(.rggb, significantBits: 12),
    ]

    /// A short stable name, used on the command line and in JSON: `bgra8`, `nv12` (video range),
    /// `nv12-full`, `yuyv422`, `gray8`, `bayer16-rggb12`.
    public var name: String {
        switch self {
        case .bgra8: "bgra8"
        case .nv12(.video): "nv12"
        case .nv12(.full): "nv12-full"
        case .yuyv422: "yuyv422"
        case .gray8: "gray8"
        case .bayer16(let pattern, let bits): "bayer16-\(pattern.rawValue)\(bits)"
        }
    }

    /// The significant bits a bayer16 buffer may hold: a sensor's 8 (widened), 10 to 12 or 16, or a merged bracket's 16.
    public static let bayerBitDepths = [8, 10, 11, 12, 16]

    /// The format with this `name`, or nil.
    public init?(name: String) {
        guard let format = PixelFormat.all.first(where: { $0.name == name })
            ?? BayerPattern.allCases.lazy.flatMap({ pattern in PixelFormat.bayerBitDepths.map { PixelFormat.bayer16(pattern, significantBits: $0) } })
                .first(where: { $0.name == name })
        else { return nil }
        self = format
    }

    /// Bytes per pixel in each plane's rows (for nv12's chroma plane: per pair of chroma samples
    /// covering two pixels, so the row is `width` bytes).
    var planeBytesPerPixel: [Int] {
        switch self {
        case .bgra8: [4]
        case .nv12: [1, 1]
        case .yuyv422: [2]
        case .gray8: [1]
        case .bayer16: [2]
        }
    }

    /// The number of rows in plane `index` for an image `height` rows tall.
    func planeHeight(_ index: Int, imageHeight height: Int) -> Int {
        if case .nv12 = self, index == 1 { return height / 2 }
        return height
    }

    /// Checks that a `width`×`height` image can be laid out in this format.
    func validate(width: Int, height: Int) throws(PixelBufferError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw .invalidDimensions(width: width, height: height, format: self,
                                     reason: "width and height must be 1…16384")
        }
        switch self {
        case .nv12 where !width.isMultiple(of: 2) || !height.isMultiple(of: 2):
            throw .invalidDimensions(width: width, height: height, format: self,
                                     reason: "nv12 needs an even width and height")
        case .yuyv422 where !width.isMultiple(of: 2):
            throw .invalidDimensions(width: width, height: height, format: self,
                                     reason: "yuyv422 needs an even width")
        case .bayer16(_, let bits) where !PixelFormat.bayerBitDepths.contains(bits):
            throw .invalidDimensions(width: width, height: height, format: self,
                                     reason: "bayer16 holds 8, 10, 11, 12 or 16 significant bits (16: a merged bracket or a 16-bit sensor), not \(bits)")
        case .bayer16 where !width.isMultiple(of: 2) || !height.isMultiple(of: 2):
            throw .invalidDimensions(width: width, height: height, format: self,
                                     reason: "a Bayer mosaic needs an even width and height")
        default:
            return
        }
    }
}

extension PixelFormat: CustomStringConvertible {
    public var description: String { name }
}

/// Why a pixel buffer could not be made.
public enum PixelBufferError: Error, Equatable, CustomStringConvertible {
    case invalidDimensions(width: Int, height: Int, format: PixelFormat, reason: String)

    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height, let format, let reason):
            "cannot lay out a \(width)x\(height) \(format) image: \(reason) — choose a size the format allows"
        }
    }
}
