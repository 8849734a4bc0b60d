import CameraCore
import CameraMetering
import Foundation

/// The view a frame shows, as its cells' scene-referred levels: log2 of each cell's linear mean
/// over the exposure that made the frame. The exposure cancels out, so two frames of one view
/// match whatever the loop did between them, while a camera turned to another view does not.
/// A cell with clipped samples gives only a lower bound on its level, and one too dark to measure
/// an upper bound: a sky clipped in one view and grey in the next has changed, by at least the gap.
/// Cells, not zones or blocks: a zone without its clipped cells is another mix at each exposure (a
/// first frame several stops over looked 1.2 EV away from the same view), and blocks of cells
/// changed so little in a second of a pan across a night field that the camera seemed at rest and
/// the loop dipped a stop to look for the highlights mid-pan. Cells see texture move; in a dim
/// scene at high gain they also move with noise (0.2–0.4 EV from one frame to the next), which
/// `ViewChange` measures and allows for.
struct SceneSignature {
    /// Per cell, the range its level lies in (bounds may be infinite); nil for a cell with no samples.
    private let levels: [ClosedRange<Double>?]

    /// Cells darker than this linear mean read mostly noise and the 8-bit steps.
    static let darkest = 1.0 / 512

    init(_ statistics: FrameStatistics, exposure: Double) {
        let cells = statistics.cells
        let darkLevel = log2(SceneSignature.darkest / exposure)
        levels = (0..<(cells.columns * cells.rows)).map { cell in
            guard let mean = cells.mean(cell) else { return nil }
            let level = log2(max(mean, SceneSignature.darkest) / exposure)
            if cells.clippedCounts[cell] > 0 { return level ... .infinity }
            return mean < SceneSignature.darkest ? -.infinity ... darkLevel : level ... level
        }
    }

    /// How far apart the levels of the cells measured in both must be (EV; 0 where their ranges
    /// overlap), at the upper quartile: a view is another when a quarter of it has changed (a sky
    /// that dims over unchanged ground), not only when most of it has. Nil when the grids differ or
    /// no cell has samples in both.
    func distance(to other: SceneSignature) -> Double? {
        guard levels.count == other.levels.count else { return nil }
        let gaps = zip(levels, other.levels).compactMap { a, b -> Double? in
            guard let a, let b else { return nil }
            return max(0, a.lowerBound - b.upperBound, b.lowerBound - a.upperBound)
        }
        return quantile(gaps, 0.75)
    }
}
