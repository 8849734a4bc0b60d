import CameraCore

/// Analyses frames: one full-resolution pass for brightness and row means (SIMD), one sampled
/// pass for the histogram, linear and colour means and the cell grid, then the zone grid and the
/// highlight mask from the cells.
///
/// ```swift
/// let statistics = try FrameAnalyzer().analyze(frame.buffer)
/// print(statistics.brightness, statistics.clippedFraction, statistics.highlights.sunFraction)
/// ```
public struct FrameAnalyzer: Sendable {
    public var configuration: AnalysisConfiguration

    public init(configuration: AnalysisConfiguration = AnalysisConfiguration()) {
        self.configuration = configuration
    }

    /// The statistics of `buffer` (bgra8, nv12, yuyv422 or gray8).
    public func analyze(_ buffer: PixelBuffer) throws(MeteringError) -> FrameStatistics {
        if case .bayer16 = buffer.format { throw .unsupportedFormat(buffer.format) }
        let bounds = configuration.regionOfInterest.pixelBounds(in: PixelSize(width: buffer.width, height: buffer.height))
        // An empty region (e.g. a zero-sized ROI) still analyses its nearest pixel.
        let columns = bounds.columns.isEmpty ? min(bounds.columns.lowerBound, buffer.width - 1)..<(min(bounds.columns.lowerBound, buffer.width - 1) + 1) : bounds.columns
        let rows = bounds.rows.isEmpty ? min(bounds.rows.lowerBound, buffer.height - 1)..<(min(bounds.rows.lowerBound, buffer.height - 1) + 1) : bounds.rows
        let rowMeans = FrameAnalyzer.rowMeans(buffer, columns: columns, rows: rows)
        let sampled = SampledPass(buffer, columns: columns, rows: rows, step: configuration.sampleStep,
                                  zoneColumns: configuration.zoneColumns, zoneRows: configuration.zoneRows)
        let cells = sampled.cells
        let count = Double(sampled.histogram.reduce(0, +))
        return FrameStatistics(
            size: PixelSize(width: columns.count, height: rows.count),
            brightness: rowMeans.reduce(0) { $0 + Double($1) } / Double(rowMeans.count),
            linearMean: Double(cells.linearSums.reduce(0, +)) / count,
            channelMeans: sampled.channelSums / count,
            histogram: Histogram(counts: sampled.histogram),
            zones: ZoneGrid(cells: cells, columns: configuration.zoneColumns, rows: configuration.zoneRows),
            cells: cells,
            rowMeans: rowMeans,
            highlights: HighlightMask(cells: cells))
    }

    /// Mean encoded Rec. 709 luma (0…1) of each row in the region, over every pixel.
    static func rowMeans(_ buffer: PixelBuffer, columns: Range<Int>, rows: Range<Int>) -> [Float] {
        let plane = buffer.planes[0]
        let base = UnsafeRawPointer(buffer.baseAddress(plane: 0))
        let count = Float(columns.count)
        return rows.map { y in
            let row = base + y * plane.bytesPerRow
            switch buffer.format {
            case .bgra8:
                let sums = RowSums.bgra(row + columns.lowerBound * 4, count: columns.count)
                return (BT709.redWeight * Float(sums.red) + BT709.greenWeight * Float(sums.green)
                        + BT709.blueWeight * Float(sums.blue)) / count / 255
            case .gray8, .nv12(.full):
                return Float(RowSums.luma(row + columns.lowerBound, count: columns.count, stride: 1)) / count / 255
            case .nv12(.video):
                return videoRangeMean(RowSums.luma(row + columns.lowerBound, count: columns.count, stride: 1), count: count)
            case .yuyv422:
                return videoRangeMean(RowSums.luma(row + columns.lowerBound * 2, count: columns.count, stride: 2), count: count)
            case .bayer16:
                preconditionFailure("bayer16 is rejected before analysis")
            }
        }
    }

    /// The full-range mean of video-range luma values summing to `sum` (16 → 0, 235 → 1).
    private static func videoRangeMean(_ sum: Int, count: Float) -> Float {
        min(max((Float(sum) / count - 16) / 219, 0), 1)
    }
}

/// Why a frame could not be analysed.
public enum MeteringError: Error, Equatable, CustomStringConvertible {
    case unsupportedFormat(PixelFormat)

    public var description: String {
        switch self {
        case .unsupportedFormat(let format):
            "cannot analyse \(format) frames: metering needs 8-bit bgra8, nv12, yuyv422 or gray8 — demosaic raw frames first"
        }
    }
}
