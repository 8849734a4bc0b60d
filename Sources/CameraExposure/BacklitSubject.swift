import CameraCore
import CameraMetering
import Foundation

/// The subject of a backlit scene, found on a coarse grid of the frame's cells. Where subjects
/// stand (the lower middle of the frame) the darker fifth is a subject in the shade — a person
/// against the sky, a sofa under a window — or a shadow on one. Grown from those blocks across
/// gentle edges only, the region takes in the whole subject (its lit side, its texture, the floor
/// it stands on) but not the sky, a window or a white wall behind a sharp edge; its linear mean in
/// the frame's lower half is what the exposure engine meters. Metering only the darkest blocks
/// would expose shadows.
struct BacklitSubject {
    /// The seeds: blocks within `seedBand` EV of this quantile of where subjects stand — the
    /// middle 70% of the frame's width below `groundTop`, the ground a subject stands on (trees on
    /// the horizon and a dark sky above it are not seeds; the region may still grow up into them).
    static let darkQuantile = 0.2
    static let groundTop = 0.6
    static let seedBand = 0.25
    /// Neighbouring blocks closer than this in EV belong to one surface.
    static let edgeTolerance = 0.3
    /// No block more than this many EV above the seeds joins: a gradient does not lead into the sky.
    /// A subject's sunlit side stands up to about 2.5 EV over its shade (sun and sky against sky
    /// alone): at 2 EV the sunlit half of a meadow or a forest floor was left out and its shade
    /// metered, 0.3–0.5 EV too bright.
    static let brightLimit = 2.5
    /// The region is metered where subjects stand: its blocks below this fraction of the height (the
    /// seeds, below `groundTop`, always are). Grown up a wall, a ceiling or trees, it takes in what
    /// the window or the sky lights brightest, above the subject.
    static let meteredTop = 0.5
    /// Cells are pooled into blocks, at most this many across, so that edges look the same at
    /// every frame size and noise in small frames does not read as an edge.
    static let gridColumns = 48

    private let columns: Int
    private let rows: Int
    /// Per block: the sum of the linear means' samples, the sample count, and whether it may join
    /// (it has samples and holds no light source).
    private var sums: [Double]
    private var samples: [Double]
    private var usable: [Bool]

    /// The cells of `statistics` pooled into blocks.
    init(_ statistics: FrameStatistics) {
        let cells = statistics.cells
        let block = max(1, cells.columns / BacklitSubject.gridColumns)
        columns = (cells.columns + block - 1) / block
        rows = (cells.rows + block - 1) / block
        sums = [Double](repeating: 0, count: columns * rows)
        samples = sums
        usable = [Bool](repeating: true, count: columns * rows)
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        for cell in 0..<(cells.columns * cells.rows) {
            let pooled = (cell / cells.columns / block) * columns + (cell % cells.columns) / block
            if statistics.highlights.kinds[cell] == lightSource { usable[pooled] = false }
            sums[pooled] += Double(cells.linearSums[cell])
            samples[pooled] += Double(cells.sampleCounts[cell])
        }
        for pooled in usable.indices where samples[pooled] == 0 { usable[pooled] = false }
    }

    /// The subject's linear mean luminance and the bounding box of the blocks metered (what a
    /// viewfinder outlines), or nil when no block lies where subjects stand.
    func metered() -> (linear: Double, region: NormalizedRect)? {
        let logs = sums.indices.map { log2(max(sums[$0] / max(samples[$0], 1), 1.0 / 4096)) }
        let standing = sums.indices.filter { block in
            let x = (Double(block % columns) + 0.5) / Double(columns), y = (Double(block / columns) + 0.5) / Double(rows)
            return usable[block] && (0.15...0.85).contains(x) && y >= BacklitSubject.groundTop
        }
        guard let dark = quantile(standing.map { logs[$0] }, BacklitSubject.darkQuantile) else { return nil }
        let seeds = standing.filter { abs(logs[$0] - dark) <= BacklitSubject.seedBand }
        let region = CellNeighborhood(columns: columns, rows: rows).grow(from: seeds) { from, to in
            usable[to] && logs[to] <= dark + BacklitSubject.brightLimit && abs(logs[to] - logs[from]) < BacklitSubject.edgeTolerance
        }
        let metered = region.filter { (Double($0 / columns) + 0.5) / Double(rows) >= BacklitSubject.meteredTop }
        let sum = metered.reduce(0) { $0 + sums[$1] }, count = metered.reduce(0) { $0 + samples[$1] }
        guard count > 0 else { return nil }
        let blockColumns = metered.map { $0 % columns }, blockRows = metered.map { $0 / columns }
        let left = Double(blockColumns.min()!) / Double(columns), top = Double(blockRows.min()!) / Double(rows)
        let bounds = NormalizedRect(x: left, y: top, width: Double(blockColumns.max()! + 1) / Double(columns) - left,
                                    height: Double(blockRows.max()! + 1) / Double(rows) - top)
        return (sum / count, bounds)
    }
}
