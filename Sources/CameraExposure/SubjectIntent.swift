import Foundation

/// How bright a picture should be, from how bright the scene really is (cd/m², from the frame and
/// the exposure that made it: the reflected-light meter equation), so the camera knows a dim room
/// from a dark rendering of a bright one.
///
/// - The subject's own brightness: sunlit snow should stay white (+1.7 EV); anything up to a
///   sunlit mid-grey is shown at mid-grey.
/// - The scene's light: dusk and night should look like dusk and night, not like an overcast noon
///   (Night Sight's rule): below `dayLuminance` the whole picture dims, down to `dimmest` EV at
///   `duskLuminance` and under.
public enum SubjectIntent {
    /// From this luminance intent rises, reaching +1.7 EV (snow, beach) at `snowLuminance`. Sunlit
    /// mid-grey is at most about 7000 cd/m² (120 000 lux), so brighter subjects reflect more than
    /// grey and should be shown brighter.
    public static let brightLuminance = 8000.0
    public static let snowLuminance = 20000.0
    public static let snowIntent = 1.7
    /// A scene whose typical surface is at least this bright (cd/m², a lit room) is shown at its
    /// full brightness; at `duskLuminance` and below, `dimmest` EV darker.
    public static let dayLuminance = 50.0
    public static let duskLuminance = 5.0
    /// How much darker a dusk or night picture is: a view at dusk (median 5 cd/m²) renders at least
    /// 1 EV darker than the same view in daylight on 47 of the 65 labelled views at −1.25 (4 of 65
    /// with the subject's intent alone), while night-street's subject stays in its natural band
    /// (−0.83 EV; −0.98 at −1.4).
    public static let dimmest = -1.25

    /// The intent in EV for a subject of `luminance` cd/m².
    public static func ev(forLuminance luminance: Double) -> Double {
        snowIntent * ramp(luminance, brightLuminance, snowLuminance)
    }

    /// The EV (≤ 0) a picture of a scene whose typical surface is `sceneLuminance` cd/m² is dimmed by.
    public static func dimming(sceneLuminance: Double) -> Double {
        dimmest * (1 - ramp(sceneLuminance, duskLuminance, dayLuminance))
    }

    /// 0 at or below `low`, 1 at or above `high`, linear in log luminance between.
    private static func ramp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        min(max((log2(max(value, 1e-6)) - log2(low)) / (log2(high) - log2(low)), 0), 1)
    }
}
