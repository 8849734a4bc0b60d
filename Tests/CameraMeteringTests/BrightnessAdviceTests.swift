import CameraCore
@testable import CameraMetering
import Testing

@Suite("Brightness advice")
struct BrightnessAdviceTests {
    typealias Zone = BrightnessAdvice.Zone

    /// The advice expected in each language.
    struct Advice: Sendable, CustomTestStringConvertible {
        let english: String, chinese: String
        var testDescription: String { english }
    }

    static let tooDark = Advice(english: "too dark — raise the exposure compensation", chinese: "画面过暗，建议增加曝光补偿")
    static let slightlyDark = Advice(english: "slightly dark — raise the exposure a little", chinese: "画面偏暗，可适当增加曝光")
    static let normal = Advice(english: "brightness normal — no adjustment needed", chinese: "亮度正常，无需调整")
    static let slightlyBright = Advice(english: "slightly bright — lower the exposure a little", chinese: "画面偏亮，可适当降低曝光")
    static let tooBright = Advice(english: "too bright — lower the exposure compensation", chinese: "画面过亮，建议降低曝光补偿")

    static let boundaries: [(Double, Zone, Advice)] = [
        (0.0, .tooDark, tooDark),
        (0.2.nextDown, .tooDark, tooDark),
        (0.199, .tooDark, tooDark),
        (0.2, .slightlyDark, slightlyDark),
        (0.4.nextDown, .slightlyDark, slightlyDark),
        (0.399, .slightlyDark, slightlyDark),
        (0.4, .normal, normal),
        (0.7.nextDown, .normal, normal),
        (0.699, .normal, normal),
        (0.7, .slightlyBright, slightlyBright),
        (0.9.nextDown, .slightlyBright, slightlyBright),
        (0.899, .slightlyBright, slightlyBright),
        (0.9, .tooBright, tooBright),
        (1.0, .tooBright, tooBright),
    ]

    static let frameLevels: [(UInt8, Advice)] = [
        (20, tooDark), (80, slightlyDark), (128, normal), (200, slightlyBright), (240, tooBright),
    ]

    @Test("Each zone boundary belongs to the brighter zone; just below it, the darker", arguments: boundaries)
    func zoneBoundaries(brightness: Double, zone: Zone, text: Advice) {
        #expect(Zone(brightness: brightness) == zone, "brightness \(brightness)")
        #expect(BrightnessAdvice.text(Zone(brightness: brightness), language: .english) == text.english)
        #expect(BrightnessAdvice.text(Zone(brightness: brightness), language: .chinese) == text.chinese)
    }

    @Test("A frame's message starts with its zone's advice", arguments: frameLevels)
    func messageFromFrame(value: UInt8, text: Advice) throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { _, _ in value })
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        #expect(BrightnessAdvice.message(statistics, flags: flags) == text.english)
        #expect(BrightnessAdvice.message(statistics, flags: flags, language: .chinese) == text.chinese)
    }

    @Test("A frame exposed for its subject is not asked to be undone: bright and dark zones say why, normal stays normal",
          arguments: frameLevels)
    func subjectExposed(value: UInt8, text: Advice) throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { _, _ in value })
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        let english = BrightnessAdvice.message(statistics, flags: flags, subjectExposed: true)
        let chinese = BrightnessAdvice.message(statistics, flags: flags, language: .chinese, subjectExposed: true)
        switch Zone(brightness: statistics.brightness) {
        case .normal:
            #expect(english == text.english && chinese == text.chinese)
        case .slightlyBright, .tooBright:
            #expect(english == "bright frame, exposed for the subject — lower the EV to keep the highlights")
            #expect(chinese == "画面偏亮，已按主体曝光——降低曝光补偿可保留高光")
        case .slightlyDark, .tooDark:
            #expect(english == "dark frame, exposed for the subject — raise the EV to lift the shadows")
            #expect(chinese == "画面偏暗，已按主体曝光——增加曝光补偿可提亮暗部")
        }
    }

    @Test("A light source in frame earns the sun-or-lamp hint and no clipping hint")
    func sunHint() throws {
        let statistics = try MeterTests.saturatedDisk()
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        #expect(!flags.backlit)
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .english) == ["sun or lamp in frame — metering the subject"])
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .chinese) == ["画面中有太阳或灯——按主体测光"])
        let zone = Zone(brightness: statistics.brightness)
        #expect(BrightnessAdvice.message(statistics, flags: flags)
                == BrightnessAdvice.text(zone, language: .english) + "; sun or lamp in frame — metering the subject")
        #expect(BrightnessAdvice.message(statistics, flags: flags, language: .chinese)
                == BrightnessAdvice.text(zone, language: .chinese) + "；画面中有太阳或灯——按主体测光")
    }

    /// 100×80 grey 80 (25×20 = 500 samples) with the first 21 samples of the top sample row
    /// clipped: 4.2% clipped, in a band too wide to be a light source.
    private func clippedBand() throws -> FrameStatistics {
        try stepFour.analyze(try buffer(.gray8, width: 100, height: 80) { x, y in y < 4 && x < 84 ? 255 : 80 })
    }

    @Test("Clipped highlights outside the sun earn a hint with one decimal")
    func clippingHint() throws {
        let statistics = try clippedBand()
        #expect(statistics.histogram.total == 500)
        #expect(statistics.highlights.lightSourceCount == 0)
        #expect(abs(statistics.highlights.nonSunClippedFraction - 0.042) <= 1e-12)
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .english) == ["highlights clipping: 4.2%"])
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .chinese) == ["高光溢出：4.2%"])
        #expect(BrightnessAdvice.message(statistics, flags: flags) == "slightly dark — raise the exposure a little; highlights clipping: 4.2%")
    }

    @Test("Clipping under 1% earns no hint")
    func smallClippingSilent() throws {
        // 4 of 500 samples clipped (0.8%), each alone in a cell of four samples: no light source.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 100, height: 80) { x, y in
            y == 0 && [0, 20, 32, 44].contains(x) ? 255 : 80
        })
        #expect(statistics.highlights.lightSourceCount == 0)
        #expect(abs(statistics.highlights.nonSunClippedFraction - 0.008) <= 1e-12)
        #expect(!BrightnessAdvice.hints(statistics, flags: SceneFlags(statistics: statistics, metadata: nil), language: .english)
            .contains { $0.hasPrefix("highlights clipping") })
    }

    @Test("Lamps over a dark street are not a backlight: light sources are left out of the backlit contrast")
    func lampsAreNotABacklight() throws {
        // 128×96, a dark grey 30 frame with 24 white 6×6 lamps over the top half, every 16 pixels:
        // they lift most of the top half's zones, yet each is a compact light source.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 128, height: 96) { x, y in
            y < 48 && x % 16 >= 5 && x % 16 < 11 && y % 16 >= 4 && y % 16 < 10 ? 255 : 30
        })
        #expect(statistics.highlights.lightSourceCount == 24)
        let flags = SceneFlags(statistics: statistics, metadata: nil)
        #expect(!flags.backlit && abs(flags.backlitContrast) < 0.5, "backlit contrast \(flags.backlitContrast) EV")
    }

    @Test("Backlight and flicker hints follow the flags")
    func backlightAndFlickerHints() throws {
        // Bright top half over a dark lower half: backlit.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 128, height: 96) { _, y in y < 48 ? 240 : 30 })
        let flags = SceneFlags(statistics: statistics, metadata: nil, flicker: 100)
        #expect(flags.backlit)
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .english)
                == ["backlit subject", "50 Hz light flicker — use flicker-safe shutter speeds"])
        #expect(BrightnessAdvice.hints(statistics, flags: flags, language: .chinese) == ["主体逆光", "检测到 50 Hz 灯光频闪"])
        let sixty = SceneFlags(statistics: statistics, metadata: nil, flicker: 120)
        #expect(BrightnessAdvice.hints(statistics, flags: sixty, language: .english).last == "60 Hz light flicker — use flicker-safe shutter speeds")
    }
}
