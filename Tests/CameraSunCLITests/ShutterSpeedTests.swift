import CameraCore
@testable import CameraSunCLI
import Testing

@Suite("ShutterSpeed parsing and description")
struct ShutterSpeedTests {
    @Test("Durations in every documented spelling parse to the exact time", arguments: [
        ("4000", MediaTime(value: 4000, timescale: 1_000_000)),
        ("4000us", MediaTime(value: 4000, timescale: 1_000_000)),
        ("4ms", MediaTime(value: 4000, timescale: 1_000_000)),
        ("0.004s", MediaTime(value: 4000, timescale: 1_000_000)),
        ("125", MediaTime(value: 125, timescale: 1_000_000)),
        ("1s", MediaTime(value: 1, timescale: 1)),
        ("33.3ms", MediaTime(value: 33_300, timescale: 1_000_000)),
        (" 4MS ", MediaTime(value: 4000, timescale: 1_000_000)),
    ])
    func parsesUnits(text: String, expected: MediaTime) throws {
        let parsed = try #require(ShutterSpeed.parse(text))
        #expect(parsed == expected)
        #expect(parsed.isNumeric)
        #expect(!parsed.isRounded, "\(text) should be represented exactly")
    }

    @Test("A bare number is microseconds: 4000 is value 4000 at timescale 1 000 000")
    func bareNumberIsMicroseconds() throws {
        let parsed = try #require(ShutterSpeed.parse("4000"))
        #expect(parsed.value == 4000)
        #expect(parsed.timescale == 1_000_000)
        #expect(parsed.seconds == 0.004)
    }

    @Test("Fractions of a second stay exact rationals", arguments: [
        ("1/250", Int64(1), Int32(250)),
        ("1/30", 1, 30),
        ("2/3", 2, 3),
        ("1/8000", 1, 8000),
    ])
    func fractionsStayExact(text: String, value: Int64, timescale: Int32) throws {
        let parsed = try #require(ShutterSpeed.parse(text))
        #expect(parsed.value == value)
        #expect(parsed.timescale == timescale)
        #expect(!parsed.isRounded)
    }

    @Test("Bad durations parse to nil", arguments: [
        "", "abc", "-5", "1/0", "0", "0/250", "-1/250", "1/-250", "1/x", "x/250", "4 ms", "4m", "inf", "nan", "0us", "-4ms", "1//2",
    ])
    func rejectsBadInput(text: String) {
        #expect(ShutterSpeed.parse(text) == nil)
    }

    @Test("Short exposures are described as 1/N s, long ones in seconds", arguments: [
        (MediaTime(value: 1, timescale: 500), "1/500 s"),
        (MediaTime(value: 4000, timescale: 1_000_000), "1/250 s"),
        (MediaTime(value: 1, timescale: 4), "1/4 s"),
        (MediaTime(value: 15, timescale: 100), "0.1500 s"),
        (MediaTime(value: 1, timescale: 2), "0.5 s"),
        (MediaTime(value: 2, timescale: 1), "2 s"),
    ])
    func describes(time: MediaTime, expected: String) {
        #expect(ShutterSpeed.describe(time) == expected)
    }
}
