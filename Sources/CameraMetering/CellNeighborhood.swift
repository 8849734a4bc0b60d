import CameraCore

/// Connected regions on a grid of cells (4-neighbourhood): light sources for the highlight mask,
/// the subject of a backlit scene for the exposure engine.
public struct CellNeighborhood: Sendable {
    public let columns: Int
    public let rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    struct Box {
        let minColumn: Int, maxColumn: Int, minRow: Int, maxRow: Int
        var area: Int { (maxColumn - minColumn + 1) * (maxRow - minRow + 1) }
        /// Half the larger side, at least 1.
        var radius: Int { max(1, (max(maxColumn - minColumn, maxRow - minRow) + 1) / 2) }
    }

    /// Calls `body` with each of the up to four neighbours of `cell` (no allocation: this runs
    /// for every cell of every frame).
    @inline(__always)
    func forEachNeighbor(of cell: Int, _ body: (Int) -> Void) {
        let column = cell % columns, row = cell / columns
        if column > 0 { body(cell - 1) }
        if column < columns - 1 { body(cell + 1) }
        if row > 0 { body(cell - columns) }
        if row < rows - 1 { body(cell + columns) }
    }

    /// The connected regions of cells satisfying `member`.
    func components(where member: (Int) -> Bool) -> [[Int]] {
        var seen = [Bool](repeating: false, count: columns * rows)
        var result: [[Int]] = []
        for start in 0..<(columns * rows) where !seen[start] && member(start) {
            seen[start] = true
            var region = [start]
            var next = 0
            while next < region.count {
                forEachNeighbor(of: region[next]) { neighbour in
                    if !seen[neighbour] && member(neighbour) {
                        seen[neighbour] = true
                        region.append(neighbour)
                    }
                }
                next += 1
            }
            result.append(region)
        }
        return result
    }

    func boundingBox(_ cells: [Int]) -> Box {
        let cols = cells.map { $0 % columns }, rowsOf = cells.map { $0 / columns }
        return Box(minColumn: cols.min()!, maxColumn: cols.max()!, minRow: rowsOf.min()!, maxRow: rowsOf.max()!)
    }

    /// The median of `values` over cells in a ring 1–3 radii outside `box`, ignoring `excluded` cells.
    func ringMedian(around box: Box, values: [Float], excluding excluded: [Bool]) -> Float {
        let inner = box.radius, outer = box.radius * 3
        var ring: [Float] = []
        for row in max(0, box.minRow - outer)...min(rows - 1, box.maxRow + outer) {
            for column in max(0, box.minColumn - outer)...min(columns - 1, box.maxColumn + outer) {
                let outside = max(box.minColumn - column, column - box.maxColumn, box.minRow - row, row - box.maxRow)
                let cell = row * columns + column
                if outside >= inner && !excluded[cell] { ring.append(values[cell]) }
            }
        }
        return quantile(ring, 0.5) ?? 1
    }

    /// `seeds` plus the cells reachable from them through cells satisfying `member`, at most
    /// `limit` steps away.
    func grow(from seeds: [Int], limit: Int, where member: (Int) -> Bool) -> [Int] {
        grow(from: seeds, limit: limit) { _, neighbour in member(neighbour) }
    }

    /// `seeds` plus the cells reachable from them in steps `joins(from, to)` allows, at most
    /// `limit` steps away (an edge-aware flood fill when `joins` compares the two cells).
    public func grow(from seeds: [Int], limit: Int = .max, joins: (_ from: Int, _ to: Int) -> Bool) -> [Int] {
        var distance = [Int32](repeating: -1, count: columns * rows)
        var region = seeds
        for seed in seeds { distance[seed] = 0 }
        var next = 0
        while next < region.count {
            let cell = region[next]
            next += 1
            guard distance[cell] < Int32(clamping: limit) else { continue }
            forEachNeighbor(of: cell) { neighbour in
                if distance[neighbour] < 0 && joins(cell, neighbour) {
                    distance[neighbour] = distance[cell] + 1
                    region.append(neighbour)
                }
            }
        }
        return region
    }
}
