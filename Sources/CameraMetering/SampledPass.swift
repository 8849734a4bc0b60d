import CameraCore

/// The sampled pass: every `step`-th pixel of every `step`-th row of the region, decoded to
/// R'G'B', feeding the histogram, the colour means and the cell grid.
struct SampledPass {
    var histogram = [Int](repeating: 0, count: 256)
    var channelSums = SIMD3<Double>()
    var linearSums: [Float]
    var sampleCounts: [Int32]
    var clippedCounts: [Int32]
    let cellColumns: Int
    let cellRows: Int

    /// Samples `buffer` inside `columns` × `rows` every `step` pixels onto a cell grid of
    /// `zoneColumns·k` × `zoneRows·k` cells, k as large as the samples allow (≤ 8).
    init(_ buffer: PixelBuffer, columns: Range<Int>, rows: Range<Int>, step: Int, zoneColumns: Int, zoneRows: Int) {
        let sampledColumns = (columns.count + step - 1) / step, sampledRows = (rows.count + step - 1) / step
        let perZone = max(1, min(AnalysisConfiguration.maximumCellsPerZone, sampledColumns / zoneColumns, sampledRows / zoneRows))
        cellColumns = zoneColumns * perZone
        cellRows = zoneRows * perZone
        linearSums = [Float](repeating: 0, count: cellColumns * cellRows)
        sampleCounts = [Int32](repeating: 0, count: cellColumns * cellRows)
        clippedCounts = [Int32](repeating: 0, count: cellColumns * cellRows)
        let cellOfColumn = (0..<sampledColumns).map { $0 * cellColumns / sampledColumns }
        let reader = SampleReader(buffer)
        TransferCurve.linear.withUnsafeBufferPointer { linear in
            for (rowIndex, y) in stride(from: rows.lowerBound, to: rows.upperBound, by: step).enumerated() {
                let cellRowStart = rowIndex * cellRows / sampledRows * cellColumns
                for (columnIndex, x) in stride(from: columns.lowerBound, to: columns.upperBound, by: step).enumerated() {
                    let (red, green, blue, luma) = reader.sample(x: x, y: y)
                    let r = linear[Int(red)], g = linear[Int(green)], b = linear[Int(blue)]
                    let cell = cellRowStart + cellOfColumn[columnIndex]
                    histogram[Int(luma)] += 1
                    channelSums += SIMD3(Double(r), Double(g), Double(b))
                    linearSums[cell] += BT709.redWeight * r + BT709.greenWeight * g + BT709.blueWeight * b
                    sampleCounts[cell] += 1
                    if luma >= 250 { clippedCounts[cell] += 1 }
                }
            }
        }
    }

    var cells: CellGrid {
        CellGrid(columns: cellColumns, rows: cellRows, linearSums: linearSums, sampleCounts: sampleCounts, clippedCounts: clippedCounts)
    }
}

/// Reads one pixel of any 8-bit format as R'G'B' plus its full-range Rec. 709 luma.
struct SampleReader {
    let buffer: PixelBuffer
    private let base: UnsafePointer<UInt8>
    private let bytesPerRow: Int
    private let chroma: UnsafePointer<UInt8>?
    private let chromaBytesPerRow: Int

    init(_ buffer: PixelBuffer) {
        self.buffer = buffer
        base = UnsafePointer(buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self))
        bytesPerRow = buffer.planes[0].bytesPerRow
        let hasChroma = buffer.planes.count > 1
        chroma = hasChroma ? UnsafePointer(buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self)) : nil
        chromaBytesPerRow = hasChroma ? buffer.planes[1].bytesPerRow : 0
    }

    @inline(__always)
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let row = base + y * bytesPerRow
        switch buffer.format {
        case .bgra8:
            let (blue, green, red) = (row[x * 4], row[x * 4 + 1], row[x * 4 + 2])
            let luma = (54 * UInt32(red) + 183 * UInt32(green) + 19 * UInt32(blue) + 128) >> 8
            return (red, green, blue, UInt8(luma))
        case .gray8:
            return (row[x], row[x], row[x], row[x])
        case .nv12(let range):
            let pair = chroma! + (y / 2) * chromaBytesPerRow + (x & ~1)
            return withLuma(row[x], cb: pair[0], cr: pair[1], range: range)
        case .yuyv422:
            let pair = row + (x & ~1) * 2
            return withLuma(row[x * 2], cb: pair[1], cr: pair[3], range: .video)
        case .bayer16:
            preconditionFailure("FrameAnalyzer rejects bayer16 before sampling")
        }
    }

    @inline(__always)
    private func withLuma(_ y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let rgb = BT709.decode(y: y, cb: cb, cr: cr, range: range)
        return (rgb.red, rgb.green, rgb.blue, range == .video ? TransferCurve.videoToFull[Int(y)] : y)
    }
}
