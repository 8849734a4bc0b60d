import CExif

/// One EXIF tag's value in one of the TIFF types, encoded little-endian (the byte order
/// `ExifWriter` declares).
enum ExifValue {
    case byte([UInt8])
    /// NUL-terminated text; EXIF calls it ASCII, and readers take UTF-8.
    case ascii(String)
    case short([UInt16])
    case long([UInt32])
    case rational([(numerator: UInt32, denominator: UInt32)])
    case signedRational([(numerator: Int32, denominator: Int32)])
    /// Bytes whose meaning the tag defines (versions, UserComment).
    case undefined([UInt8])

    var format: ExifFormat {
        switch self {
        case .byte: EXIF_FORMAT_BYTE
        case .ascii: EXIF_FORMAT_ASCII
        case .short: EXIF_FORMAT_SHORT
        case .long: EXIF_FORMAT_LONG
        case .rational: EXIF_FORMAT_RATIONAL
        case .signedRational: EXIF_FORMAT_SRATIONAL
        case .undefined: EXIF_FORMAT_UNDEFINED
        }
    }

    /// The number of values of `format` (for text, the bytes with the terminating NUL).
    var components: Int {
        switch self {
        case .byte(let bytes), .undefined(let bytes): bytes.count
        case .ascii(let text): text.utf8.count + 1
        case .short(let values): values.count
        case .long(let values): values.count
        case .rational(let values): values.count
        case .signedRational(let values): values.count
        }
    }

    var bytes: [UInt8] {
        switch self {
        case .byte(let bytes), .undefined(let bytes): bytes
        case .ascii(let text): Array(text.utf8) + [0]
        case .short(let values): values.flatMap(Self.littleEndian)
        case .long(let values): values.flatMap(Self.littleEndian)
        case .rational(let values): values.flatMap { Self.littleEndian($0.numerator) + Self.littleEndian($0.denominator) }
        case .signedRational(let values):
            values.flatMap { Self.littleEndian(UInt32(bitPattern: $0.numerator)) + Self.littleEndian(UInt32(bitPattern: $0.denominator)) }
        }
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    // MARK: Rationals

    /// `value` (≥ 0) as a fraction with a denominator up to `maximumDenominator`: exact for values
    /// such as 1/250, 1.8 or 4.25.
    static func fraction(_ value: Double, maximumDenominator: UInt32 = 10_000) -> (numerator: UInt32, denominator: UInt32) {
        let (numerator, denominator) = closestFraction(value, maximumDenominator: Int64(maximumDenominator))
        return (UInt32(clamping: numerator), UInt32(denominator))
    }

    /// `value` as a signed fraction with a denominator up to `maximumDenominator`: −2/3 EV stays
    /// −2/3.
    static func signedFraction(_ value: Double, maximumDenominator: Int32 = 10_000) -> (numerator: Int32, denominator: Int32) {
        let (numerator, denominator) = closestFraction(abs(value), maximumDenominator: Int64(maximumDenominator))
        return (Int32(clamping: value < 0 ? -numerator : numerator), Int32(denominator))
    }

    /// The continued-fraction convergent of `value` (≥ 0) that is exact to double precision, or the
    /// last one whose denominator fits.
    private static func closestFraction(_ value: Double, maximumDenominator: Int64) -> (Int64, Int64) {
        guard value.isFinite, value < Double(UInt32.max) else { return (Int64(UInt32.max), 1) }
        var (previousNumerator, numerator): (Int64, Int64) = (0, 1)
        var (previousDenominator, denominator): (Int64, Int64) = (1, 0)
        var remainder = value
        while true {
            let term = Int64(remainder.rounded(.down))
            let nextDenominator = term * denominator + previousDenominator
            guard nextDenominator <= maximumDenominator else { break }
            (previousNumerator, numerator) = (numerator, term * numerator + previousNumerator)
            (previousDenominator, denominator) = (denominator, nextDenominator)
            let fraction = remainder - Double(term)
            if abs(Double(numerator) / Double(denominator) - value) <= value.ulp || fraction < 1e-12 { break }
            remainder = 1 / fraction
        }
        return (numerator, denominator)
    }
}
