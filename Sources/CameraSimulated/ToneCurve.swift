import CameraCore

/// How linear sensor values become encoded 8-bit values.
public enum ToneCurve: String, Sendable, Hashable, CaseIterable {
    /// The sRGB opto-electronic transfer function (what phones and browsers expect).
    case sRGB
    /// No curve: 8-bit values proportional to light (for measurements).
    case linear

    /// The encoded value (0…1) of a linear value (0…1).
    public func encode(_ linear: Double) -> Double {
        switch self {
        case .linear: min(max(linear, 0), 1)
        case .sRGB: SRGB.encode(linear)
        }
    }

    /// The linear value (0…1) of an encoded value (0…1).
    public func decode(_ encoded: Double) -> Double {
        switch self {
        case .linear: min(max(encoded, 0), 1)
        case .sRGB: SRGB.decode(encoded)
        }
    }
}
