import Foundation

/// The language of advice shown to the photographer.
public enum AdviceLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case chinese = "zh"
}

/// Tells the photographer what the frame's brightness means and what to do, in the seed
/// article's five zones, plus hints about the sun, backlight and clipping.
public enum BrightnessAdvice {
    /// The article's brightness zones, split at 0.2, 0.4, 0.7 and 0.9.
    public enum Zone: Sendable, CaseIterable {
        case tooDark, slightlyDark, normal, slightlyBright, tooBright

        public init(brightness: Double) {
            switch brightness {
            case ..<0.2: self = .tooDark
            case ..<0.4: self = .slightlyDark
            case ..<0.7: self = .normal
            case ..<0.9: self = .slightlyBright
            default: self = .tooBright
            }
        }
    }

    /// Clipping above this fraction (outside the sun) earns a hint.
    public static let clippingHintFraction = 0.01

    /// The zone's advice; the Chinese is the article's wording.
    public static func text(_ zone: Zone, language: AdviceLanguage) -> String {
        switch (zone, language) {
        case (.tooDark, .english): "too dark — raise the exposure compensation"
        case (.slightlyDark, .english): "slightly dark — raise the exposure a little"
        case (.normal, .english): "brightness normal — no adjustment needed"
        case (.slightlyBright, .english): "slightly bright — lower the exposure a little"
        case (.tooBright, .english): "too bright — lower the exposure compensation"
        case (.tooDark, .chinese): "画面过暗，建议增加曝光补偿"
        case (.slightlyDark, .chinese): "画面偏暗，可适当增加曝光"
        case (.normal, .chinese): "亮度正常，无需调整"
        case (.slightlyBright, .chinese): "画面偏亮，可适当降低曝光"
        case (.tooBright, .chinese): "画面过亮，建议降低曝光补偿"
        }
    }

    /// Hints beyond the zone: the sun or a lamp in frame (a light source: the mask cannot tell which), a
    /// backlit subject, clipped highlights.
    public static func hints(_ statistics: FrameStatistics, flags: SceneFlags, language: AdviceLanguage) -> [String] {
        var hints: [String] = []
        let highlights = statistics.highlights
        if highlights.lightSourceCount > 0 {
            hints.append(language == .english ? "sun or lamp in frame — metering the subject" : "画面中有太阳或灯——按主体测光")
        }
        if flags.backlit {
            hints.append(language == .english ? "backlit subject" : "主体逆光")
        }
        if highlights.nonSunClippedFraction >= clippingHintFraction {
            let percent = String(format: "%.1f", highlights.nonSunClippedFraction * 100)
            hints.append(language == .english ? "highlights clipping: \(percent)%" : "高光溢出：\(percent)%")
        }
        if let frequency = flags.flicker {
            let hertz = Int(frequency / 2)
            hints.append(language == .english ? "\(hertz) Hz light flicker — use flicker-safe shutter speeds" : "检测到 \(hertz) Hz 灯光频闪")
        }
        return hints
    }

    /// The advice for a frame the exposure engine has deliberately made bright or dark — exposed
    /// for its subject (a backlit person, snow, a night street) — where the zone's "lower/raise the
    /// exposure" would contradict it; nil in the normal zone.
    public static func subjectText(_ zone: Zone, language: AdviceLanguage) -> String? {
        switch (zone, language) {
        case (.normal, _): nil
        case (.slightlyBright, .english), (.tooBright, .english): "bright frame, exposed for the subject — lower the EV to keep the highlights"
        case (.slightlyDark, .english), (.tooDark, .english): "dark frame, exposed for the subject — raise the EV to lift the shadows"
        case (.slightlyBright, .chinese), (.tooBright, .chinese): "画面偏亮，已按主体曝光——降低曝光补偿可保留高光"
        case (.slightlyDark, .chinese), (.tooDark, .chinese): "画面偏暗，已按主体曝光——增加曝光补偿可提亮暗部"
        }
    }

    /// The zone's advice followed by the hints, joined with "; ". `subjectExposed` says the
    /// exposure engine has converged on its subject without a bias: a bright or dark frame is
    /// then its choice, and the advice says so (`subjectText`) instead of asking to undo it.
    public static func message(_ statistics: FrameStatistics, flags: SceneFlags, language: AdviceLanguage = .english,
                               subjectExposed: Bool = false) -> String {
        let zone = Zone(brightness: statistics.brightness)
        let zoneText = (subjectExposed ? subjectText(zone, language: language) : nil) ?? text(zone, language: language)
        return ([zoneText] + hints(statistics, flags: flags, language: language)).joined(separator: language == .english ? "; " : "；")
    }
}
