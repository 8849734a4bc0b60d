/// A V4L2 time per frame in seconds, numerator over denominator (`struct v4l2_fract`): 1/30 is
/// 30 frames per second.
public struct V4L2Fraction: Sendable, Hashable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The frame interval of `rate` frames per second, to a thousandth of a frame per second and
    /// reduced: 1/30 for 30, 100/2997 for 29.97.
    public init(frameRate rate: Double) {
        var numerator = UInt32(1000), denominator = UInt32((rate * 1000).rounded())
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }
        numerator /= max(a, 1)
        denominator /= max(a, 1)
        self.init(numerator: numerator, denominator: denominator)
    }

    /// Frames per second at this interval (0 for a zero interval).
    public var frameRate: Double { numerator == 0 ? 0 : Double(denominator) / Double(numerator) }

    public var description: String { "\(numerator)/\(denominator)" }
}
