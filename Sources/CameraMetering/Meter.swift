import CameraCore
import Foundation

/// One metered value and how far it is from where the exposure wants it.
public struct MeteringResult: Sendable, Hashable {
    public let mode: MeteringMode
    /// The weighted linear luminance, 0…1.
    public let metered: Double
    /// The linear value the exposure aims for (0.18 × 2^bias by default).
    public let target: Double
    /// log2(metered / target): positive means over-exposed by that many stops.
    public var evError: Double { log2(max(metered, 1e-6) / target) }
}

/// Weighs a frame's cells or zones into one metered value for a mode.
public enum Meter {
    /// Mid-grey in linear light: the default target.
    public static let midGray = 0.18

    /// Meters `statistics` in `mode` against mid-grey shifted by `bias` EV.
    public static func meter(_ statistics: FrameStatistics, mode: MeteringMode, bias: Double = 0) -> MeteringResult {
        let cells = statistics.cells
        let metered: Double
        switch mode {
        case .average:
            metered = weightedMean(cells) { _ in 1 }
        case .centerWeighted:
            metered = weightedMean(cells) { MeteringMode.centerWeight(x: cells.center($0).x, y: cells.center($0).y) }
        case .sunAware:
            metered = weightedMean(cells) { cell in
                statistics.highlights.kinds[cell] == HighlightMask.Kind.lightSource.rawValue
                    ? 0 : MeteringMode.centerWeight(x: cells.center(cell).x, y: cells.center(cell).y)
            }
        case .spot(let point, let radius):
            metered = spotMean(cells, point: point, radius: radius, aspect: Double(statistics.size.width) / Double(statistics.size.height))
        case .matrix:
            let logs = statistics.zones.means.compactMap { $0 }.map { log2(max($0, 1.0 / 4096)) }
            metered = logs.isEmpty ? 0 : pow(2, logs.reduce(0, +) / Double(logs.count))
        }
        return MeteringResult(mode: mode, metered: metered, target: midGray * pow(2, bias))
    }

    /// Σ wᵢ·sumᵢ / Σ wᵢ·countᵢ over cells: a pixel-weighted mean. Falls back to the plain mean
    /// when every weight is zero (e.g. the sun fills the centre).
    private static func weightedMean(_ cells: CellGrid, weight: (Int) -> Double) -> Double {
        var sum = 0.0, count = 0.0
        for cell in 0..<(cells.columns * cells.rows) {
            let w = weight(cell)
            sum += w * Double(cells.linearSums[cell])
            count += w * Double(cells.sampleCounts[cell])
        }
        if count > 0 { return sum / count }
        let total = Double(cells.sampleCounts.reduce(0, +))
        return total > 0 ? cells.linearSums.reduce(0.0) { $0 + Double($1) } / total : 0
    }

    /// The mean of cells whose centres lie within `radius` frame heights of `point`, or of the
    /// nearest cell when the spot is smaller than a cell.
    private static func spotMean(_ cells: CellGrid, point: NormalizedPoint, radius: Double, aspect: Double) -> Double {
        func distance(_ cell: Int) -> Double {
            let centre = cells.center(cell)
            let dx = (centre.x - point.x) * aspect, dy = centre.y - point.y
            return (dx * dx + dy * dy).squareRoot()
        }
        let inside = weightedMean(cells) { distance($0) <= radius ? 1 : 0 }
        let any = (0..<(cells.columns * cells.rows)).contains { distance($0) <= radius && cells.sampleCounts[$0] > 0 }
        if any { return inside }
        let nearest = (0..<(cells.columns * cells.rows)).filter { cells.sampleCounts[$0] > 0 }.min { distance($0) < distance($1) }
        return nearest.flatMap { cells.mean($0) } ?? 0
    }
}
