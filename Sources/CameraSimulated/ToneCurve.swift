import Foundation

/// How linear sensor values become encoded 8-bit values.
public enum ToneCurve: String, Sendable, Hashable, CaseIterable {
    /// The sRGB opto-electronic transfer function (what phones and browsers expect).
    case sRGB
    /// No curve: 8-bit values proportional to light (for measurements).
    case linear

    /// The encoded value (0…1) of a linear value (0…1).
    public func encode(_ linear: Double) -> Double {
        let x = min(max(linear, 0), 1)
        switch self {
        case .linear: return x
        case .sRGB: return x <= 0.003_130_8 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        }
    }

    /// The linear value (0…1) of an encoded value (0…1).
    public func decode(_ encoded: Double) -> Double {
        let x = min(max(encoded, 0), 1)
        switch self {
        case .linear: return x
        case .sRGB: return x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
    }
}
