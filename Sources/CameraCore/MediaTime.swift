/// A point or span on a media timeline as an exact rational number of seconds (`value / timescale`),
/// like Core Media's `CMTime`.
///
/// Arithmetic between different timescales is exact: the result uses the least common multiple of
/// the two timescales. Only when that would overflow is the result rounded to the larger timescale,
/// and `isRounded` says so. Besides numeric times there are the special values `invalid`,
/// `positiveInfinity`, `negativeInfinity` and `indefinite` (an unknown time, such as the duration of
/// a live stream).
public struct MediaTime: Sendable, Hashable {
    /// What kind of time this is: a number, or one of the special values.
    public enum Kind: Sendable, Hashable {
        case numeric, invalid, positiveInfinity, negativeInfinity, indefinite
    }

    public let value: Int64
    public let timescale: Int32
    public let kind: Kind
    /// True when an operation that produced this time could not be represented exactly.
    public let isRounded: Bool

    /// A numeric time of `value / timescale` seconds. A timescale ≤ 0 gives `.invalid`.
    public init(value: Int64, timescale: Int32) {
        self.init(value: value, timescale: timescale, kind: timescale > 0 ? .numeric : .invalid, isRounded: false)
    }

    private init(value: Int64, timescale: Int32, kind: Kind, isRounded: Bool) {
        self.value = value
        self.timescale = kind == .numeric ? timescale : 0
        self.kind = kind
        self.isRounded = isRounded
    }

    /// The nearest time to `seconds` in `preferredTimescale` units; non-finite seconds map to the
    /// special values (NaN is `.invalid`).
    public init(seconds: Double, preferredTimescale: Int32) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
        } else if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
        } else {
            let scaled = (seconds * Double(preferredTimescale)).rounded()
            guard let value = Int64(exactly: scaled) else {
                self = seconds > 0 ? .positiveInfinity : .negativeInfinity
                return
            }
            self.init(value: value, timescale: preferredTimescale, kind: .numeric,
                      isRounded: scaled != seconds * Double(preferredTimescale))
        }
    }

    public static let zero = MediaTime(value: 0, timescale: 1)
    public static let invalid = MediaTime(value: 0, timescale: 0, kind: .invalid, isRounded: false)
    public static let indefinite = MediaTime(value: 0, timescale: 0, kind: .indefinite, isRounded: false)
    public static let positiveInfinity = MediaTime(value: 0, timescale: 0, kind: .positiveInfinity, isRounded: false)
    public static let negativeInfinity = MediaTime(value: 0, timescale: 0, kind: .negativeInfinity, isRounded: false)

    public var isNumeric: Bool { kind == .numeric }
    public var isValid: Bool { kind != .invalid }

    /// The time in seconds; infinities give ±infinity, invalid and indefinite give NaN.
    public var seconds: Double {
        switch kind {
        case .numeric: Double(value) / Double(timescale)
        case .positiveInfinity: .infinity
        case .negativeInfinity: -.infinity
        case .invalid, .indefinite: .nan
        }
    }

    /// This time expressed in another timescale, rounding to nearest (ties away from zero) when
    /// the conversion is not exact.
    public func converted(toTimescale newScale: Int32) -> MediaTime {
        guard isNumeric, newScale > 0 else { return isNumeric ? .invalid : self }
        if newScale == timescale { return self }
        let scaled = MediaTime.rescale(value, from: timescale, to: newScale)
        // Too large for Int64 in the new timescale: an infinity, as `multiplied(by:)` gives.
        guard let newValue = Int64(exactly: scaled.value) else {
            return scaled.value < 0 ? .negativeInfinity : .positiveInfinity
        }
        return MediaTime(value: newValue, timescale: newScale, kind: .numeric,
                         isRounded: isRounded || !scaled.isExact)
    }

    /// `value × newScale / oldScale` in 128 bits (so it cannot overflow), rounded to nearest with
    /// ties away from zero.
    private static func rescale(
        _ value: Int64, from oldScale: Int32, to newScale: Int32
    ) -> (value: Int128, isExact: Bool) {
        if oldScale == newScale { return (Int128(value), true) }
        let divisor = Int128(oldScale)
        let (quotient, remainder) = (Int128(value) * Int128(newScale)).quotientAndRemainder(dividingBy: divisor)
        let rounded = remainder.magnitude * 2 >= divisor.magnitude ? quotient + (remainder < 0 ? -1 : 1) : quotient
        return (rounded, remainder == 0)
    }

    /// This time multiplied by an integer, exactly unless the result overflows (then an infinity).
    public func multiplied(by factor: Int64) -> MediaTime {
        guard isNumeric else { return self }
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        if overflow { return (value < 0) != (factor < 0) ? .negativeInfinity : .positiveInfinity }
        return MediaTime(value: product, timescale: timescale, kind: .numeric, isRounded: isRounded)
    }
}

extension MediaTime: AdditiveArithmetic {
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        guard lhs.isNumeric, rhs.isNumeric else { return specialSum(lhs, rhs) }
        return combine(lhs, rhs) { $0 + $1 }
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        // Subtracts directly rather than adding `rhs.negated`, which cannot represent −Int64.min.
        guard lhs.isNumeric, rhs.isNumeric else { return specialSum(lhs, rhs.negated) }
        return combine(lhs, rhs) { $0 - $1 }
    }

    /// The time with its sign flipped (`+infinity` for a value of `Int64.min`, whose negation does
    /// not fit).
    public var negated: MediaTime {
        switch kind {
        case .numeric where value == .min: .positiveInfinity
        case .numeric: MediaTime(value: -value, timescale: timescale, kind: .numeric, isRounded: isRounded)
        case .positiveInfinity: .negativeInfinity
        case .negativeInfinity: .positiveInfinity
        case .invalid, .indefinite: self
        }
    }

    /// The result of adding two times of which at least one is a special value.
    private static func specialSum(_ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        switch (lhs.kind, rhs.kind) {
        case (.invalid, _), (_, .invalid): .invalid
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): .invalid
        case (.indefinite, _), (_, .indefinite): .indefinite
        case (.positiveInfinity, _), (_, .positiveInfinity): .positiveInfinity
        default: .negativeInfinity
        }
    }

    /// Applies `operation` to both values on their least common timescale, falling back to the
    /// larger of the two timescales (rounded) when the common one would overflow. The values are
    /// rescaled and combined in 128 bits; a result beyond `Int64` becomes an infinity.
    private static func combine(
        _ lhs: MediaTime, _ rhs: MediaTime, _ operation: (Int128, Int128) -> Int128
    ) -> MediaTime {
        let scale = commonTimescale(lhs.timescale, rhs.timescale) ?? max(lhs.timescale, rhs.timescale)
        let left = rescale(lhs.value, from: lhs.timescale, to: scale)
        let right = rescale(rhs.value, from: rhs.timescale, to: scale)
        let result = operation(left.value, right.value)
        guard let value = Int64(exactly: result) else { return result < 0 ? .negativeInfinity : .positiveInfinity }
        return MediaTime(value: value, timescale: scale, kind: .numeric,
                         isRounded: lhs.isRounded || rhs.isRounded || !left.isExact || !right.isExact)
    }

    /// The least common multiple of two timescales, or nil when it does not fit in `Int32`.
    private static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32? {
        var (x, y) = (Int64(a), Int64(b))
        while y != 0 { (x, y) = (y, x % y) }
        return Int32(exactly: Int64(a) / x * Int64(b))
    }
}

extension MediaTime: Comparable {
    /// Orders times exactly across timescales: −∞ < numeric < +∞ < indefinite; invalid times sort
    /// first and are equal to each other.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.isNumeric && rhs.isNumeric {
            let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
            let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
            return (left.high, left.low) < (right.high, right.low)
        }
        return lhs.orderRank < rhs.orderRank
    }

    /// Equal when both denote the same time, whatever the timescale (1/2 == 2/4).
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.isNumeric && rhs.isNumeric { return !(lhs < rhs) && !(rhs < lhs) }
        return lhs.kind == rhs.kind
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        guard isNumeric else { return }
        var (x, y) = (value.magnitude, UInt64(timescale))
        while y != 0 { (x, y) = (y, x % y) }
        hasher.combine(value / Int64(max(x, 1)))
        hasher.combine(Int64(timescale) / Int64(max(x, 1)))
    }

    private var orderRank: Int {
        switch kind {
        case .invalid: 0
        case .negativeInfinity: 1
        case .numeric: 2
        case .positiveInfinity: 3
        case .indefinite: 4
        }
    }
}

extension MediaTime: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .numeric: "\(value)/\(timescale) (\(seconds) s)"
        case .invalid: "invalid"
        case .indefinite: "indefinite"
        case .positiveInfinity: "+infinity"
        case .negativeInfinity: "-infinity"
        }
    }
}
