/// The sampled frame on a grid of small cells — finer than the zones — holding what the sun mask,
/// spot metering and sun-aware metering need: linear sums, sample counts, clipped counts.
public struct CellGrid: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    /// Sum of the linear luminance (0…1) of the samples in each cell, row-major.
    public let linearSums: [Float]
    public let sampleCounts: [Int32]
    /// Samples with encoded luma ≥ 250 in each cell.
    public let clippedCounts: [Int32]

    /// The mean linear luminance of a cell, or nil when no sample fell in it.
    public func mean(_ index: Int) -> Double? {
        sampleCounts[index] > 0 ? Double(linearSums[index]) / Double(sampleCounts[index]) : nil
    }

    /// The normalised centre of cell `index` in the analysed region.
    public func center(_ index: Int) -> (x: Double, y: Double) {
        ((Double(index % columns) + 0.5) / Double(columns), (Double(index / columns) + 0.5) / Double(rows))
    }
}

/// A zone grid of linear means (0…1), row-major; nil marks a zone no sample fell in.
public struct ZoneGrid: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    public let means: [Double?]

    /// The zone grid of `cells`, each zone the pooled samples of its `cells.columns / columns`
    /// × `cells.rows / rows` block of cells, leaving out the cells `excluded` names.
    init(cells: CellGrid, columns: Int, rows: Int, excluding excluded: (Int) -> Bool = { _ in false }) {
        self.columns = columns
        self.rows = rows
        var sums = [Double](repeating: 0, count: columns * rows)
        var counts = [Int](repeating: 0, count: columns * rows)
        for index in 0..<(cells.columns * cells.rows) where !excluded(index) {
            let zone = (index / cells.columns) * rows / cells.rows * columns + (index % cells.columns) * columns / cells.columns
            sums[zone] += Double(cells.linearSums[index])
            counts[zone] += Int(cells.sampleCounts[index])
        }
        means = zip(sums, counts).map { $1 > 0 ? $0 / Double($1) : nil }
    }

    public subscript(column: Int, row: Int) -> Double? { means[row * columns + column] }
}
