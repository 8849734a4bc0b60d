import CameraCore
import CameraMetering

/// The cells of a frame's grid that hold the sun, other light sources or their glare — what
/// sun-aware metering leaves out — as the sun-mask overlay draws them. The grid spans the whole
/// analysed frame; cell (column, row) covers the same fraction of any image of that frame.
struct SunMask: Sendable, Equatable {
    let columns: Int
    let rows: Int
    /// One flag per cell, row-major.
    let cells: [Bool]

    init(columns: Int, rows: Int, cells: [Bool]) {
        precondition(columns > 0 && rows > 0 && cells.count == columns * rows,
                     "a sun mask needs one flag for each of its \(columns)×\(rows) cells, not \(cells.count)")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// The light-source cells of `highlights` (sky is part of the picture, so it is not marked).
    init(_ highlights: HighlightMask) {
        self.init(columns: highlights.columns, rows: highlights.rows,
                  cells: highlights.kinds.map { $0 == HighlightMask.Kind.lightSource.rawValue })
    }

    /// The source pixels of `cell` in an image of `size`: those whose column and row scale down to
    /// the cell's.
    func sourceRect(ofCell cell: Int, in size: PixelSize) -> (x: Range<Int>, y: Range<Int>) {
        func pixels(_ index: Int, of count: Int, across extent: Int) -> Range<Int> {
            ((index * extent + count - 1) / count)..<(((index + 1) * extent + count - 1) / count)
        }
        return (pixels(cell % columns, of: columns, across: size.width), pixels(cell / columns, of: rows, across: size.height))
    }
}
