import Foundation

/// The exposure a subject should get, from how bright it really is: a night scene should stay dark
/// (−1 EV) and sunlit snow should stay white (+1.7 EV); everything between is mid-grey. The scene
/// luminance comes from the frame and the exposure that made it (the reflected-light meter
/// equation), so the camera knows a dim room from a dark rendering of a bright one.
public enum SubjectIntent {
    /// Below this luminance (cd/m²) a scene is night: intent −1 EV; up to `dimLuminance` it rises to 0.
    public static let nightLuminance = 2.0
    public static let dimLuminance = 20.0
    /// From this luminance intent rises, reaching +1.7 EV (snow, beach) at `snowLuminance`. Sunlit
    /// mid-grey is at most about 7000 cd/m² (120 000 lux), so brighter subjects reflect more than
    /// grey and should be shown brighter.
    public static let brightLuminance = 8000.0
    public static let snowLuminance = 20000.0
    public static let nightIntent = -1.0
    public static let snowIntent = 1.7

    /// The intent in EV for a subject of `luminance` cd/m².
    public static func ev(forLuminance luminance: Double) -> Double {
        func ramp(_ value: Double, _ low: Double, _ high: Double) -> Double {
            min(max((log2(value) - log2(low)) / (log2(high) - log2(low)), 0), 1)
        }
        let lum = max(luminance, 1e-6)
        if lum < dimLuminance { return nightIntent * (1 - ramp(lum, nightLuminance, dimLuminance)) }
        return snowIntent * ramp(lum, brightLuminance, snowLuminance)
    }
}
