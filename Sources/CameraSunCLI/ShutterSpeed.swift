import Foundation
import CameraCore

/// Parses `--shutter` durations as rpicam-apps does: a bare number is microseconds; `us`, `ms`
/// and `s` suffixes name the unit; `1/250` is a fraction of a second (kept exact).
enum ShutterSpeed {
    /// Durations from this long on are not a shutter speed, in seconds.
    static let longest = 3600.0

    /// The duration `text` names, exact for fractions and to the microsecond otherwise; nil when
    /// it names none.
    static func parse(_ text: String) -> MediaTime? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let slash = text.firstIndex(of: "/") {
            guard let numerator = Int64(text[..<slash]), let denominator = Int32(text[text.index(after: slash)...]),
                  numerator > 0, denominator > 0 else { return nil }
            return MediaTime(value: numerator, timescale: denominator)
        }
        let units: [(suffix: String, microseconds: Double)] = [("us", 1), ("ms", 1000), ("s", 1_000_000), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let number = Double(text.dropLast(unit.suffix.count)), number > 0, number.isFinite else { return nil }
            let microseconds = number * unit.microseconds
            return MediaTime(seconds: microseconds / 1_000_000, preferredTimescale: 1_000_000)
        }
        return nil
    }

    /// "1/500 s" for short exposures, "0.5 s" for long ones.
    static func describe(_ time: MediaTime) -> String {
        let seconds = time.seconds
        if seconds < 0.5 {
            let reciprocal = 1 / seconds
            return reciprocal == reciprocal.rounded() || reciprocal > 10
                ? "1/\(Int(reciprocal.rounded())) s" : String(format: "%.4f s", seconds)
        }
        return String(format: "%.2g s", seconds)
    }
}
