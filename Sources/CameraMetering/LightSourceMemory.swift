/// Light sources remembered from frame to frame. A lamp found as a compact blob at one exposure
/// merges with its glare at a higher one into a clipped blob too large to be a lamp, and a single
/// frame then takes it for a wall. The exposure engine leaves light sources out of its backlight
/// and its highlight budget, so it metered a studio's softboxes as backlight at one exposure and
/// left them out at the next, in a cycle (0.35 EV, for good, on one view). So on a frame that finds
/// no light source, those of the last frame that did stay light sources while they stay clipped.
/// A frame that finds any replaces them: remembered cells are not carried along a pan, where the
/// view under them changes.
public struct LightSourceMemory: Sendable {
    /// Per cell: whether it is a remembered light source.
    private var sources: [Bool] = []

    public init() {}

    /// `statistics`, or when they find no light source, with the remembered ones kept where they
    /// are still clipped; remembers the light sources of the result.
    public mutating func apply(_ statistics: FrameStatistics) -> FrameStatistics {
        let kept = statistics.highlights.lightSourceCount == 0 && sources.contains(true) ? statistics.remembering(sources) : statistics
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        sources = kept.highlights.kinds.map { $0 == lightSource }
        return kept
    }
}
