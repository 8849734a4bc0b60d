/// A point in normalised image coordinates: (0, 0) is the top-left and (1, 1) the bottom-right of
/// the unrotated sensor image (AVFoundation's device point of interest).
public struct NormalizedPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let center = NormalizedPoint(x: 0.5, y: 0.5)

    /// True when the point lies within the image.
    public var isInsideImage: Bool { (0...1).contains(x) && (0...1).contains(y) }

    /// The nearest point within the image.
    public var clamped: NormalizedPoint {
        NormalizedPoint(x: min(max(x, 0), 1), y: min(max(y, 0), 1))
    }
}

/// A rectangle in normalised image coordinates (top-left origin).
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public func contains(_ point: NormalizedPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }

    /// The pixel rows and columns this rectangle covers in a `size` image, clipped to the image.
    public func pixelBounds(in size: PixelSize) -> (columns: Range<Int>, rows: Range<Int>) {
        func span(_ start: Double, _ length: Double, _ count: Int) -> Range<Int> {
            // Clamps before converting to Int, which traps on NaN and on values beyond Int's range
            // (a decoded rectangle can hold any Double). NaN edges give an empty span.
            func edge(_ position: Double) -> Int {
                let pixel = (position * Double(count)).rounded()
                return pixel.isNaN ? 0 : Int(min(max(pixel, 0), Double(count)))
            }
            let lower = edge(start)
            let upper = max(edge(start + length), lower)
            return lower..<upper
        }
        return (span(x, width, size.width), span(y, height, size.height))
    }
}

/// Image dimensions in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)x\(height)" }

    /// Parses "WIDTHxHEIGHT", e.g. "1920x1080".
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}

/// A clockwise rotation of the image by a quarter turn multiple.
public enum Rotation: Int, Sendable, Hashable, CaseIterable, Codable {
    case degrees0 = 0, degrees90 = 90, degrees180 = 180, degrees270 = 270

    /// The rotation for an angle in degrees, or nil when it is not a multiple of 90.
    public init?(degrees: Int) {
        let normalised = ((degrees % 360) + 360) % 360
        self.init(rawValue: normalised)
    }

    public var degrees: Int { rawValue }

    /// The rotation that undoes this one.
    public var inverse: Rotation { Rotation(degrees: 360 - rawValue)! }

    /// True for 90° and 270°, which swap width and height.
    public var swapsDimensions: Bool { self == .degrees90 || self == .degrees270 }

    /// Where a normalised point of the unrotated image lands in the rotated image.
    public func apply(to point: NormalizedPoint) -> NormalizedPoint {
        switch self {
        case .degrees0: point
        case .degrees90: NormalizedPoint(x: 1 - point.y, y: point.x)
        case .degrees180: NormalizedPoint(x: 1 - point.x, y: 1 - point.y)
        case .degrees270: NormalizedPoint(x: point.y, y: 1 - point.x)
        }
    }

    /// The size of a `size` image after this rotation.
    public func apply(to size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }
}

/// How an image is fitted into a view of another aspect ratio (AVLayerVideoGravity).
public enum VideoGravity: String, Sendable, Hashable, CaseIterable, Codable {
    /// Scale preserving aspect ratio until the view is covered; the overflow is cropped.
    case fill
    /// Scale preserving aspect ratio until the image fits; the view is letterboxed.
    case fit
    /// Scale each axis to the view; the aspect ratio changes.
    case stretch
}
