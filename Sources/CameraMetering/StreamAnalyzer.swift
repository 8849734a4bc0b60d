import CameraCore

/// Analyses a stream's frames in order: `FrameAnalyzer` on each, with light sources remembered from
/// frame to frame. A lamp found as a compact blob at one exposure merges with its glare at a higher
/// one into a clipped blob too large to be a lamp, and a single frame then takes it for a wall. The
/// exposure engine leaves light sources out of its backlight and its highlight budget, so it metered
/// a studio's softboxes as backlight at one exposure and left them out at the next, in a cycle
/// (0.35 EV, for good, on one view). So on a frame that finds no light source, those of the last
/// frame that did stay light sources while they stay clipped. A frame that finds any replaces them:
/// remembered cells are not carried along a pan, where the view under them changes. The capture
/// loop and the closed-loop evaluation each run one per stream.
public struct StreamAnalyzer: Sendable {
    private let analyzer: FrameAnalyzer
    /// Per cell: whether it is a remembered light source; empty when none is.
    private var lightSources: [Bool] = []

    public init(_ analyzer: FrameAnalyzer = FrameAnalyzer()) {
        self.analyzer = analyzer
    }

    /// The statistics of the stream's next frame.
    public mutating func analyze(_ buffer: PixelBuffer) throws(MeteringError) -> FrameStatistics {
        let statistics = try analyzer.analyze(buffer)
        let kept = statistics.highlights.lightSourceCount == 0 && !lightSources.isEmpty ? statistics.remembering(lightSources) : statistics
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        lightSources = kept.highlights.lightSourceCount > 0 ? kept.highlights.kinds.map { $0 == lightSource } : []
        return kept
    }
}
