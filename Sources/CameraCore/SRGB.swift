import Foundation

/// The sRGB transfer function (IEC 61966-2-1) between linear light and encoded values, both 0…1:
/// what the sensor's tone curve writes and what metering decodes.
public enum SRGB {
    /// The encoded value of a linear value (clamped to 0…1).
    public static func encode(_ linear: Double) -> Double {
        let x = min(max(linear, 0), 1)
        return x <= 0.003_130_8 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
    }

    /// The linear value of an encoded value (clamped to 0…1).
    public static func decode(_ encoded: Double) -> Double {
        let x = min(max(encoded, 0), 1)
        return x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    /// The linear value of each 8-bit encoded value, for per-pixel decoding.
    public static let linearOf8Bit: [Float] = (0..<256).map { Float(decode(Double($0) / 255)) }
}
