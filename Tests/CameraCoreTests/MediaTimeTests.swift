import CameraCore
import Testing

/// Shorthand for a numeric time of `value / timescale` seconds.
private func t(_ value: Int64, _ timescale: Int32) -> MediaTime {
    MediaTime(value: value, timescale: timescale)
}

@Suite("MediaTime arithmetic is exact across timescales")
struct MediaTimeArithmeticTests {
    @Test("1/3 + 1/6 is exactly 1/2, on timescale 6")
    func thirdPlusSixthIsExactlyHalf() {
        let sum = t(1, 3) + t(1, 6)
        #expect(sum.value == 3)
        #expect(sum.timescale == 6)
        #expect(sum.isNumeric)
        #expect(!sum.isRounded)
        #expect(sum == t(1, 2))
    }

    @Test("Sums land on the least common multiple of the timescales", arguments: [
        (t(1, 3), t(1, 6), Int64(3), Int32(6)),
        (t(1, 30000), t(1, 44100), 247, 4_410_000),   // 147/4410000 + 100/4410000
        (t(1, 48000), t(1, 44100), 307, 7_056_000),   // 147/7056000 + 160/7056000
        (t(1001, 30000), t(1, 30), 2001, 30000),
        (t(-1, 4), t(1, 6), -1, 12),
        (t(1, 2), t(-1, 2), 0, 2),
        (MediaTime.zero, t(1001, 30000), 1001, 30000),
    ])
    func sumUsesLeastCommonTimescale(lhs: MediaTime, rhs: MediaTime, value: Int64, timescale: Int32) {
        for sum in [lhs + rhs, rhs + lhs] {
            #expect(sum.value == value)
            #expect(sum.timescale == timescale)
            #expect(!sum.isRounded)
        }
    }

    @Test("Differences are exact and may be negative", arguments: [
        (t(1, 3), t(1, 6), Int64(1), Int32(6)),
        (t(1, 6), t(1, 3), -1, 6),
        (MediaTime.zero, t(1, 30), -1, 30),
        (t(1, 44100), t(1, 30000), -47, 4_410_000),   // 100 − 147
        (t(-1, 3), t(-1, 3), 0, 3),
    ])
    func differenceIsExact(lhs: MediaTime, rhs: MediaTime, value: Int64, timescale: Int32) {
        let difference = lhs - rhs
        #expect(difference.value == value)
        #expect(difference.timescale == timescale)
        #expect(!difference.isRounded)
    }

    @Test("30000 frames of 1001/30000 s add up to exactly 1001 s")
    func ntscFrameDurationsAccumulateWithoutDrift() {
        let frameDuration = t(1001, 30000)
        var total = MediaTime.zero
        for _ in 0..<30000 { total = total + frameDuration }
        #expect(total.value == 30_030_000)
        #expect(total.timescale == 30000)
        #expect(!total.isRounded)
        #expect(total == t(1001, 1))
        #expect(total.seconds == 1001)
        #expect(frameDuration.multiplied(by: 30000) == total)
    }

    @Test("Negative times add, negate and convert to seconds")
    func negativeValues() {
        let sum = t(-1, 3) + t(-1, 6)
        #expect(sum.value == -3 && sum.timescale == 6)
        #expect(sum == t(-1, 2))
        #expect(sum.seconds == -0.5)
        #expect(t(1, 3).negated == t(-1, 3))
        #expect(t(-1, 2) < t(-1, 3))
        #expect(t(-1, 3) < .zero)
        #expect(t(-5, 10).hashValue == t(-1, 2).hashValue)
    }

    @Test("When the common timescale overflows Int32 the sum is rounded to the larger timescale and flagged")
    func overflowingCommonTimescaleRounds() {
        // 999983 and 1000003 are primes, so their LCM (~1e12) does not fit in Int32.
        let sum = t(1, 999_983) + t(1, 1_000_003)
        #expect(sum.timescale == 1_000_003)
        #expect(sum.value == 2)   // 1/999983 ≈ 1.00002/1000003 rounds to 1/1000003
        #expect(sum.isRounded)
        // Off by less than half a unit of the result's timescale.
        #expect(abs(sum.seconds - (1.0 / 999_983 + 1.0 / 1_000_003)) < 0.5 / 1_000_003)
    }

    @Test("The fallback timescale is only flagged as rounded when a conversion was inexact")
    func overflowingCommonTimescaleExactWhenPossible() {
        let sum = t(999_983, 999_983) + t(1, 1_000_003)   // 1 s converts exactly to 1000003/1000003
        #expect(sum.timescale == 1_000_003)
        #expect(sum.value == 1_000_004)
        #expect(!sum.isRounded)
    }

    @Test("Rounding is sticky: a sum with a rounded operand stays flagged")
    func roundedFlagPropagates() {
        let rounded = t(1, 3).converted(toTimescale: 1000)
        #expect(rounded.isRounded)
        #expect((rounded + t(1, 1000)).isRounded)
        #expect((t(1, 1000) - rounded).isRounded)
        #expect(rounded.multiplied(by: 3).isRounded)
    }

    @Test("Sums past Int64 become infinities instead of wrapping or trapping")
    func valueOverflowGivesInfinity() {
        #expect(t(.max, 1) + t(1, 1) == .positiveInfinity)
        #expect(t(.min, 1) + t(-1, 1) == .negativeInfinity)
        #expect(t(.min, 1) - t(1, 1) == .negativeInfinity)
        #expect(t(.max, 1) - t(-1, 1) == .positiveInfinity)
        // Overflow while moving to the common timescale.
        #expect(t(.max, 1) + t(1, 2) == .positiveInfinity)
        #expect(t(.min, 1) - t(1, 2) == .negativeInfinity)
        #expect(t(.max / 2, 1) + t(.max / 2, 1) == t(.max - 1, 1))
    }

    @Test("Subtracting Int64.min is exact when the result fits, infinite when it does not")
    func subtractingMostNegativeValue() {
        #expect(t(-1, 1) - t(.min, 1) == t(.max, 1))
        #expect(t(0, 1) - t(.min, 1) == .positiveInfinity)
        #expect(t(.min, 1).negated == .positiveInfinity)
    }

    @Test("multiplied(by:) is exact and overflows to the infinity of the right sign")
    func multiplication() {
        let product = t(1001, 30000).multiplied(by: -3)
        #expect(product.value == -3003 && product.timescale == 30000)
        #expect(t(.max / 2 + 1, 1).multiplied(by: 2) == .positiveInfinity)
        #expect(t(.max / 2 + 1, 1).multiplied(by: -2) == t(.min, 1))   // −2^63 still fits
        #expect(t(.max / 2 + 2, 1).multiplied(by: -2) == .negativeInfinity)
        #expect(t(-(.max / 2) - 2, 1).multiplied(by: -2) == .positiveInfinity)
        #expect(MediaTime.indefinite.multiplied(by: 2) == .indefinite)
        #expect(MediaTime.positiveInfinity.multiplied(by: 2) == .positiveInfinity)
    }
}

@Suite("MediaTime comparison and hashing")
struct MediaTimeComparisonTests {
    @Test("1/3 is greater than 333333/1000000")
    func thirdVersusDecimalApproximation() {
        let third = t(1, 3)
        let approximation = t(333_333, 1_000_000)
        #expect(approximation < third)
        #expect(!(third < approximation))
        #expect(third != approximation)
        #expect(t(333_333_333, 1_000_000_000) < third)
        #expect(third < t(333_334, 1_000_000))
    }

    @Test("Equal times on different timescales are equal and hash alike", arguments: [
        (t(1, 2), t(2, 4)),
        (t(1, 2), t(15000, 30000)),
        (t(-1, 2), t(-3, 6)),
        (t(0, 1), t(0, 90000)),
        (t(1001, 30000), t(2002, 60000)),
        (t(3, 1), t(3_000_000_000, 1_000_000_000)),
    ])
    func equalTimesHashAlike(a: MediaTime, b: MediaTime) {
        #expect(a == b)
        #expect(b == a)
        #expect(!(a < b) && !(b < a))
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    @Test("Values near the Int64 limits compare exactly even where Double cannot tell them apart")
    func extremeValuesCompareExactly() {
        let big = t(.max, 3)
        let slightlySmaller = t(.max - 1, 3)
        #expect(big.seconds == slightlySmaller.seconds)   // Double loses the difference…
        #expect(slightlySmaller < big)                    // …the exact comparison does not.
        #expect(big != slightlySmaller)

        // M/T vs (M−1)/(T−1): cross products M(T−1) = MT − M < (M−1)T = MT − T.
        let a = t(.max, .max)
        let b = t(.max - 1, .max - 1)
        #expect(a < b)
        #expect(!(b < a))

        #expect(t(.min, 1) < t(.min + 1, 1))
        #expect(t(.min, 5) < t(.min, 7))
        #expect(t(.min, .max) < t(.max, .max))
        #expect(t(.max, 1) == t(.max, 1))
        #expect(t(.max, 2) != t(.max - 1, 2))
    }

    @Test("Special values order as −∞ < numeric < +∞ < indefinite, invalid first")
    func specialValueOrdering() {
        let shuffled: [MediaTime] = [.indefinite, t(1, 2), .positiveInfinity, t(.max, 1), .negativeInfinity,
                                     t(.min, 1), .zero, t(-1, 3), .invalid]
        let expected: [MediaTime] = [.invalid, .negativeInfinity, t(.min, 1), t(-1, 3), .zero, t(1, 2),
                                     t(.max, 1), .positiveInfinity, .indefinite]
        let sorted = shuffled.sorted()
        #expect(sorted.map(\.kind) == expected.map(\.kind))
        #expect(sorted == expected)
        #expect(MediaTime.negativeInfinity < t(.min, 1))
        #expect(t(.max, 1) < MediaTime.positiveInfinity)
    }

    @Test("Special values equal only themselves")
    func specialValueEquality() {
        #expect(MediaTime.invalid == MediaTime.invalid)
        #expect(MediaTime.invalid != .zero)
        #expect(MediaTime.positiveInfinity == .positiveInfinity)
        #expect(MediaTime.positiveInfinity != .negativeInfinity)
        #expect(MediaTime.indefinite != .positiveInfinity)
        #expect(MediaTime(value: 5, timescale: 0) == .invalid)
        #expect(MediaTime.invalid.hashValue == MediaTime(value: 7, timescale: -1).hashValue)
    }
}

@Suite("MediaTime special values")
struct MediaTimeSpecialValueTests {
    @Test("A timescale of zero or less makes an invalid time", arguments: [Int32(0), -1, .min])
    func nonPositiveTimescaleIsInvalid(timescale: Int32) {
        let time = MediaTime(value: 1, timescale: timescale)
        #expect(time.kind == .invalid)
        #expect(!time.isValid)
        #expect(!time.isNumeric)
        #expect(time.seconds.isNaN)
    }

    @Test("Invalid propagates through every operation", arguments: [
        t(1, 2), MediaTime.zero, .positiveInfinity, .negativeInfinity, .indefinite, .invalid,
    ])
    func invalidPropagates(other: MediaTime) {
        #expect((MediaTime.invalid + other).kind == .invalid)
        #expect((other + MediaTime.invalid).kind == .invalid)
        #expect((MediaTime.invalid - other).kind == .invalid)
        #expect((other - MediaTime.invalid).kind == .invalid)
        #expect(MediaTime.invalid.negated.kind == .invalid)
        #expect(MediaTime.invalid.converted(toTimescale: 600).kind == .invalid)
    }

    @Test("Adding opposite infinities is invalid")
    func oppositeInfinitiesAreInvalid() {
        #expect(MediaTime.positiveInfinity + .negativeInfinity == .invalid)
        #expect(MediaTime.negativeInfinity + .positiveInfinity == .invalid)
        #expect(MediaTime.positiveInfinity - .positiveInfinity == .invalid)
        #expect(MediaTime.negativeInfinity - .negativeInfinity == .invalid)
    }

    @Test("Infinities absorb numeric times and like infinities")
    func infinitiesAbsorb() {
        #expect(MediaTime.positiveInfinity + t(-5, 1) == .positiveInfinity)
        #expect(t(.min, 1) + .positiveInfinity == .positiveInfinity)
        #expect(MediaTime.negativeInfinity + t(.max, 1) == .negativeInfinity)
        #expect(MediaTime.positiveInfinity + .positiveInfinity == .positiveInfinity)
        #expect(MediaTime.positiveInfinity - .negativeInfinity == .positiveInfinity)
        #expect(t(1, 2) - .positiveInfinity == .negativeInfinity)
        #expect(MediaTime.positiveInfinity.negated == .negativeInfinity)
        #expect(MediaTime.negativeInfinity.negated == .positiveInfinity)
    }

    @Test("Indefinite absorbs numeric times and infinities but not invalid")
    func indefinite() {
        #expect(MediaTime.indefinite + t(1, 2) == .indefinite)
        #expect(t(1, 2) - .indefinite == .indefinite)
        #expect(MediaTime.indefinite + .positiveInfinity == .indefinite)
        #expect(MediaTime.negativeInfinity + .indefinite == .indefinite)
        #expect(MediaTime.indefinite + .invalid == .invalid)
        #expect(MediaTime.indefinite.isValid)
        #expect(!MediaTime.indefinite.isNumeric)
        #expect(MediaTime.indefinite.seconds.isNaN)
        #expect(MediaTime.indefinite.negated == .indefinite)
    }

    @Test("Special values have timescale 0 and readable descriptions")
    func descriptions() {
        #expect(MediaTime.positiveInfinity.timescale == 0)
        #expect(MediaTime.invalid.description == "invalid")
        #expect(MediaTime.indefinite.description == "indefinite")
        #expect(MediaTime.positiveInfinity.description == "+infinity")
        #expect(MediaTime.negativeInfinity.description == "-infinity")
        #expect(t(1, 2).description == "1/2 (0.5 s)")
    }
}

@Suite("MediaTime conversions")
struct MediaTimeConversionTests {
    @Test("seconds divides value by timescale", arguments: [
        (t(1, 2), 0.5),
        (t(-3, 4), -0.75),
        (t(90000, 90000), 1.0),
        (t(1001, 30000), 1001.0 / 30000.0),
        (MediaTime.zero, 0.0),
        (MediaTime.positiveInfinity, .infinity),
        (MediaTime.negativeInfinity, -.infinity),
    ])
    func secondsOfNumericAndInfiniteTimes(time: MediaTime, seconds: Double) {
        #expect(time.seconds == seconds)
    }

    @Test("init(seconds:preferredTimescale:) rounds to the nearest unit and flags inexact results", arguments: [
        (0.5, Int32(600), Int64(300), false),
        (1.0 / 3.0, 1000, 333, true),
        (2.0 / 3.0, 1000, 667, true),
        (-0.0625, 8, -1, true),        // −0.5 units, ties away from zero
        (0.0625, 8, 1, true),
        (-2.25, 4, -9, false),
        (0.0, 90000, 0, false),
        (1.0 / 30.0, 30, 1, false),
    ])
    func initFromSeconds(seconds: Double, timescale: Int32, value: Int64, rounded: Bool) {
        let time = MediaTime(seconds: seconds, preferredTimescale: timescale)
        #expect(time.isNumeric)
        #expect(time.value == value)
        #expect(time.timescale == timescale)
        #expect(time.isRounded == rounded)
    }

    @Test("init(seconds:preferredTimescale:) maps non-finite and unrepresentable input to special values", arguments: [
        (Double.nan, Int32(600), MediaTime.Kind.invalid),
        (1.0, 0, .invalid),
        (1.0, -600, .invalid),
        (.infinity, 600, .positiveInfinity),
        (-.infinity, 600, .negativeInfinity),
        (1e300, 600, .positiveInfinity),
        (-1e300, 600, .negativeInfinity),
    ])
    func initFromSpecialSeconds(seconds: Double, timescale: Int32, kind: MediaTime.Kind) {
        #expect(MediaTime(seconds: seconds, preferredTimescale: timescale).kind == kind)
    }

    @Test("converted(toTimescale:) rounds to nearest, ties away from zero", arguments: [
        (t(1, 3), Int32(1000), Int64(333), true),
        (t(2, 3), 1000, 667, true),
        (t(1, 8), 4, 1, true),           // 0.5 → 1
        (t(-1, 8), 4, -1, true),         // −0.5 → −1
        (t(-3, 8), 4, -2, true),         // −1.5 → −2
        (t(3, 8), 4, 2, true),           // 1.5 → 2
        (t(-1, 3), 1000, -333, true),
        (t(1, 2), 1000, 500, false),
        (t(3000, 90000), 30, 1, false),
        (t(1001, 30000), 600, 20, true), // 20.02
        (t(.max, 1), 1, .max, false),
        (t(.max, .max), 1, 4_294_967_298, true), // (2^63 − 1) / (2^31 − 1) = 2^32 + 2, remainder 1
    ])
    func convertedToTimescale(time: MediaTime, timescale: Int32, value: Int64, rounded: Bool) {
        let converted = time.converted(toTimescale: timescale)
        #expect(converted.value == value)
        #expect(converted.timescale == timescale)
        #expect(converted.isRounded == rounded)
    }

    @Test("Conversions that cannot be represented give special values")
    func convertedToUnusableTimescale() {
        #expect(t(1, 2).converted(toTimescale: 0) == .invalid)
        #expect(t(1, 2).converted(toTimescale: -30) == .invalid)
        #expect(MediaTime.positiveInfinity.converted(toTimescale: 30) == .positiveInfinity)
        #expect(MediaTime.indefinite.converted(toTimescale: 30) == .indefinite)
        #expect(t(.max, 1).converted(toTimescale: 1000) == .positiveInfinity)
        #expect(t(.min, 1).converted(toTimescale: 2) == .negativeInfinity)
    }
}
