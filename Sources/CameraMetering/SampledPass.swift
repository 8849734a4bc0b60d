import CameraCore

/// The sampled pass: every `step`-th pixel of every `step`-th row of the region, decoded to
/// R'G'B', feeding the histogram, the colour means and the cell grid.
struct SampledPass {
    /// Prepares to sample `columns` × `rows` every `step` pixels onto a cell grid of
    /// `zoneColumns·k` × `zoneRows·k` cells, k as large as the samples allow (≤ 6).
    init(columns: Range<Int>, rows: Range<Int>, step: Int, zoneColumns: Int, zoneRows: Int) {
        let sampledColumns = (columns.count + step - 1) / step
        sampledRows = (rows.count + step - 1) / step
        let perZone = max(1, min(AnalysisConfiguration.maximumCellsPerZone, sampledColumns / zoneColumns, sampledRows / zoneRows))
        let (cellColumns, cellRows) = (zoneColumns * perZone, zoneRows * perZone)
        (self.cellColumns, self.cellRows) = (cellColumns, cellRows)
        self.columns = columns
        self.step = step
        // Sampled column c lies in cell column c·cellColumns / sampledColumns: each cell column
        // covers a contiguous run of sampled columns, starting at spanStarts[cellColumn].
        spanStarts = (0...cellColumns).map { ($0 * sampledColumns + cellColumns - 1) / cellColumns }
        linearSums = [Float](repeating: 0, count: cellColumns * cellRows)
        sampleCounts = [Int32](repeating: 0, count: cellColumns * cellRows)
        clippedCounts = [Int32](repeating: 0, count: cellColumns * cellRows)
    }

    private let columns: Range<Int>
    private let step: Int
    private let sampledRows: Int
    private let cellColumns: Int
    private let cellRows: Int
    private let spanStarts: [Int]
    private var linearSums: [Float]
    private var sampleCounts: [Int32]
    private var clippedCounts: [Int32]
    /// Four interleaved histograms, so that consecutive samples never wait on the same counter.
    private var histograms = [Int32](repeating: 0, count: 4 * 256)
    private(set) var channelSums = SIMD3<Double>()

    var histogram: [Int] {
        (0..<256).map { Int(histograms[$0]) + Int(histograms[256 + $0]) + Int(histograms[512 + $0]) + Int(histograms[768 + $0]) }
    }

    var cells: CellGrid {
        CellGrid(columns: cellColumns, rows: cellRows, linearSums: linearSums, sampleCounts: sampleCounts, clippedCounts: clippedCounts)
    }

    /// Adds the samples of image row `y`, the `sampledRow`-th sampled row. Each cell's run of
    /// samples is summed in registers and stored once.
    @inline(__always)
    mutating func add<Sampler: PixelSampler>(row y: Int, sampledRow: Int, _ sampler: Sampler) {
        let cellRowStart = sampledRow * cellRows / sampledRows * cellColumns
        var rowChannels = SIMD4<Float>()
        let (firstColumn, step, cellColumns) = (columns.lowerBound, self.step, self.cellColumns)
        SRGB.linearOf8Bit.withUnsafeBufferPointer { linear in
            spanStarts.withUnsafeBufferPointer { spanStarts in
                histograms.withUnsafeMutableBufferPointer { histograms in
                    linearSums.withUnsafeMutableBufferPointer { sums in
                        sampleCounts.withUnsafeMutableBufferPointer { counts in
                            clippedCounts.withUnsafeMutableBufferPointer { clipped in
                                for cellColumn in 0..<cellColumns {
                                    var sum: Float = 0, clippedCount: Int32 = 0
                                    let span = spanStarts[cellColumn]..<spanStarts[cellColumn + 1]
                                    for columnIndex in span {
                                        let (red, green, blue, luma) = sampler.pixel(x: firstColumn &+ columnIndex &* step, y: y)
                                        let rgb = SIMD4<Float>(linear[Int(red)], linear[Int(green)], linear[Int(blue)], 0)
                                        histograms[(columnIndex & 3) &* 256 &+ Int(luma)] &+= 1
                                        rowChannels += rgb
                                        sum += BT709.redWeight * rgb.x + BT709.greenWeight * rgb.y + BT709.blueWeight * rgb.z
                                        clippedCount &+= luma >= 250 ? 1 : 0
                                    }
                                    let cell = cellRowStart &+ cellColumn
                                    sums[cell] += sum
                                    counts[cell] &+= Int32(span.count)
                                    clipped[cell] &+= clippedCount
                                }
                            }
                        }
                    }
                }
            }
        }
        channelSums += SIMD3(Double(rowChannels.x), Double(rowChannels.y), Double(rowChannels.z))
    }
}
