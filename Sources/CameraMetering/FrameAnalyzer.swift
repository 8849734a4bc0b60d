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
        switch buffer.format {
        case .bgra8: analyze(buffer, BGRAReader(buffer))
        case .gray8: analyze(buffer, GrayReader(buffer))
        case .nv12(.video): analyze(buffer, NV12Reader<VideoRange>(buffer))
        case .nv12(.full): analyze(buffer, NV12Reader<FullRange>(buffer))
        case .yuyv422: analyze(buffer, YUYVReader(buffer))
        case .bayer16: throw .unsupportedFormat(buffer.format)
        }
    }

    /// One pass down the region: every row's mean luma, and every `sampleStep`-th row sampled
    /// while it is still in cache.
    private func analyze<Sampler: PixelSampler>(_ buffer: PixelBuffer, _ sampler: Sampler) -> FrameStatistics {
        let bounds = configuration.regionOfInterest.pixelBounds(in: PixelSize(width: buffer.width, height: buffer.height))
        // An empty region (e.g. a zero-sized ROI) still analyses its nearest pixel.
        let columns = bounds.columns.isEmpty ? FrameAnalyzer.nearestPixel(bounds.columns, buffer.width) : bounds.columns
        let rows = bounds.rows.isEmpty ? FrameAnalyzer.nearestPixel(bounds.rows, buffer.height) : bounds.rows
        let step = configuration.step(forPixels: columns.count * rows.count)
        var sampled = SampledPass(columns: columns, rows: rows, step: step,
                                  zoneColumns: configuration.zoneColumns, zoneRows: configuration.zoneRows)
        var rowMeans = [Float]()
        rowMeans.reserveCapacity(rows.count)
        for (index, y) in rows.enumerated() {
            rowMeans.append(sampler.rowMean(y: y, columns: columns))
            if index % step == 0 { sampled.add(row: y, sampledRow: index / step, sampler) }
        }
        let cells = sampled.cells
        let histogram = Histogram(counts: sampled.histogram)
        let count = Double(histogram.total)
        return FrameStatistics(
            size: PixelSize(width: columns.count, height: rows.count),
            sampleStep: step,
            brightness: rowMeans.reduce(0) { $0 + Double($1) } / Double(rowMeans.count),
            // Summed in Double: a Float running sum over thousands of cells drifts by ~1e-4.
            linearMean: cells.linearSums.reduce(0.0) { $0 + Double($1) } / count,
            channelMeans: sampled.channelSums / count,
            histogram: histogram,
            zones: ZoneGrid(cells: cells, columns: configuration.zoneColumns, rows: configuration.zoneRows),
            cells: cells,
            rowMeans: rowMeans,
            highlights: HighlightMask(cells: cells, medianLinear: SRGB.decode(histogram.percentile(0.5))))
    }

    private static func nearestPixel(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let index = min(range.lowerBound, count - 1)
        return index..<(index + 1)
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
