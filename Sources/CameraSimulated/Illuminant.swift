import CameraCore

/// The colour of the light a simulated scene is lit with, as the per-channel factor the sensor
/// read-out multiplies the scene's radiance by.
///
/// Scenes are painted under 6500 K light; relighting them at another colour temperature scales
/// each channel by that light's linear RGB relative to 6500 K (`ColorTemperature.relativeRGB`:
/// the Planckian locus, unit Rec. 709 luminance, so exposure is unchanged) — a von Kries model of
/// every surface and light source in the scene taking on the new light's colour.
enum Illuminant {
    /// The scene's own light: every channel as painted.
    static let neutral = SIMD3<Float>(1, 1, 1)

    /// The channel factors of light at `temperature` kelvin, or `neutral` for nil.
    static func channelScale(temperature: Double?) -> SIMD3<Float> {
        guard let temperature else { return neutral }
        return SIMD3<Float>(ColorTemperature(temperature).relativeRGB)
    }
}
