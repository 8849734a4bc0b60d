import Foundation

/// What a `Watermark` burns into each frame: the frame's time and optional text above it, in a
/// corner, white with a dark outline so it reads on the sun and in shadow.
public struct WatermarkSettings: Sendable, Equatable {
    /// The corner the watermark sits in, a margin away from both edges.
    public enum Corner: String, Sendable, Hashable, CaseIterable {
        case topLeft, topRight, bottomLeft, bottomRight
    }

    /// Debian's DejaVu Sans (package fonts-dejavu-core).
    public static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// The text heights, as fractions of the frame height, a watermark allows.
    public static let textHeights = 0.01...0.25

    /// Text above the timestamp, one line per line break; nil or empty for the timestamp alone.
    public var text: String?
    public var corner: Corner
    /// The font's size (pixels per em) as a fraction of the frame height, 0.01…0.25.
    public var textHeight: Double
    /// The zone the timestamp's wall-clock time is given in.
    public var timeZone: TimeZone
    /// The TrueType font the text is drawn in.
    public var fontPath: String

    public init(text: String? = nil, corner: Corner = .bottomRight, textHeight: Double = 0.035,
                timeZone: TimeZone = .current, fontPath: String = WatermarkSettings.dejaVuSans) {
        self.text = text
        self.corner = corner
        self.textHeight = textHeight
        self.timeZone = timeZone
        self.fontPath = fontPath
    }
}
