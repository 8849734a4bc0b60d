import Foundation
import CameraCore

/// What kind of scene a frame shows, for advice and for the exposure engine.
public struct SceneFlags: Sendable, Hashable {
    /// A dark subject area under a bright top: a subject against the light.
    public let backlit: Bool
    /// Stops by which the top half (its brighter quarter of zones) outshines where a subject stands
    /// (the darker quarter of the lower-centre zones), light sources left out of both.
    public let backlitContrast: Double
    /// The top half's brighter quarter is at full scale (its zones' linear mean at least
    /// `clippedLevel`): `backlitContrast` is then only a lower bound, squeezed by the clipping.
    public let backlightClipped: Bool
    /// The scene is dim (under `lowLightLuminance`), judged from the exposure that made the frame.
    public let lowLight: Bool
    /// The scene luminance the frame and its exposure imply, in cd/m² (nil without metadata).
    public let sceneLuminance: Double?
    /// Stops between the 2nd and 98th percentile of linear luminance.
    public let dynamicRange: Double
    /// Mains flicker seen as bands (the frequency of the light, 100 or 120 Hz), or nil.
    public let flicker: Double?

    /// A surround this many stops brighter than the centre makes a frame backlit.
    public static let backlitThreshold = 2.0
    /// A linear mean (a zone's, a metered subject's) that reaches this is clipped: a lower bound.
    public static let clippedLevel = 0.98
    /// Scenes below this luminance (cd/m²) are low light: a dim room or a street at night.
    public static let lowLightLuminance = 10.0

    public init(statistics: FrameStatistics, metadata: FrameMetadata?, flicker: Double? = nil) {
        // A backlight is a bright background, not the lamps or the sun themselves: zones without them.
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        let zones = ZoneGrid(cells: statistics.cells, columns: statistics.zones.columns, rows: statistics.zones.rows) {
            statistics.highlights.kinds[$0] == lightSource
        }
        var subjectArea: [Double] = [], top: [Double] = []
        for row in 0..<zones.rows {
            for column in 0..<zones.columns {
                guard let mean = zones[column, row] else { continue }
                let x = (Double(column) + 0.5) / Double(zones.columns), y = (Double(row) + 0.5) / Double(zones.rows)
                if y < 0.5 { top.append(mean) }
                if (0.25...0.75).contains(x) && y >= 0.3 { subjectArea.append(mean) }
            }
        }
        // The darker quarter of where subjects stand against the brighter quarter of the top half.
        let dark = quantile(subjectArea, 0.25) ?? 0, bright = quantile(top, 0.75) ?? 0
        backlitContrast = log2(max(bright, 1.0 / 4096) / max(dark, 1.0 / 4096))
        backlightClipped = bright >= SceneFlags.clippedLevel
        backlit = backlitContrast >= SceneFlags.backlitThreshold
        sceneLuminance = metadata?.sceneLuminance(linearMean: statistics.linearMean)
        lowLight = sceneLuminance.map { $0 < SceneFlags.lowLightLuminance } ?? false
        dynamicRange = statistics.dynamicRange
        self.flicker = flicker
    }
}
