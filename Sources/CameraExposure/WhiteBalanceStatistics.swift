import CameraCore
import CameraMetering
import Foundation

/// The colour of a frame's surfaces as the sensor saw them (before white balance), with what
/// cannot show the light's colour left out: the sky, light sources, clipped pixels and regions lit
/// far brighter than the rest.
///
/// The frame is sampled on a sparse grid (about `targetSamples` pixels; a raw frame by 2×2 quads)
/// into `columns × rows` cells. Each sample is decoded to linear RGB (sRGB curve; BT.709 for
/// Y'CbCr formats) and divided by the white-balance gains the frame was made with, so the
/// statistics do not depend on the gains in effect. A sample is left out when
///
/// 1. a channel is at or near clipping (`ColorSampler.clippedLevel`): its colour is bent;
/// 2. it lies on a light source or its glare (`HighlightMask`, when given);
/// 3. it is more than `brightRatio` times the frame's lower-quartile cell: lit by another, far
///    brighter light, or a light itself — a window, a lamp's glare, a lit shop front;
/// 4. it lies in the sky: cells joined to the top of the frame that are all at least `skyRatio`
///    times the lower quartile (a bright sky is the majority of many frames, so it is not "far
///    above" their median, yet it is the light, not a surface under it).
///
/// `estimate` then finds the light (`WhiteBalanceStatistics+Estimate`). A gray8 buffer has no
/// colour and gives no cells.
public struct WhiteBalanceStatistics: Sendable {
    /// One region's colour.
    public struct Cell: Sendable, Hashable {
        /// Mean linear RGB before white balance of the samples kept.
        public var rgb: SIMD3<Double>
        /// Samples that went into `rgb`.
        public var sampleCount: Int
        /// Samples that fell in the cell, kept or not.
        public var totalCount: Int

        public init(rgb: SIMD3<Double>, sampleCount: Int, totalCount: Int? = nil) {
            self.rgb = rgb
            self.sampleCount = sampleCount
            self.totalCount = totalCount ?? sampleCount
        }
    }

    /// How far above the lower-quartile cell a sample may be and still show the light's colour.
    /// A white surface reflects 2.3 EV more than a mid-grey one in the same light, and a frame's
    /// lower quartile is at or below its mid-grey: 3 EV keeps sunlit snow (4.7× its frame's lower
    /// quartile on snow-sun) and leaves out a window seen from the room (15–80× on
    /// window-interior) and the sky of backlit-portrait (8–15×).
    static let brightRatio = 8.0
    /// How far above the lower-quartile cell the cells of a region joined to the top of the frame
    /// must all be for it to be sky: backlit-portrait's and pan-into-sun's skies stand 8–25× above
    /// it; snow-sun's blue sky (0.7–1.8×, darker than the snow) and Carrots.hdr's leaves at the
    /// top (at most 2.9×) are surfaces and stay.
    static let skyRatio = 4.0

    public let columns: Int
    public let rows: Int
    /// `columns × rows` cells, row by row (cells without samples have `totalCount` 0).
    public let cells: [Cell]

    public init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "one cell per grid position")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// The statistics of `frame`, taken under the white-balance gains in its metadata, leaving out
    /// the light sources of `highlights` (the analysis of a frame of the same size).
    public init(frame: Frame, highlights: HighlightMask? = nil, columns: Int = 32, rows: Int = 24, targetSamples: Int = 16384) {
        self.init(buffer: frame.buffer, appliedGains: frame.metadata.whiteBalanceGains, calibration: frame.metadata.rawCalibration,
                  highlights: highlights, columns: columns, rows: rows, targetSamples: targetSamples)
    }

    /// The statistics of `buffer`, whose colours were made with `appliedGains` (ignored for
    /// bayer16, whose samples have no white balance; their black and white levels are
    /// `calibration`'s, or 0 and full scale without one).
    public init(buffer: PixelBuffer, appliedGains: WhiteBalanceGains, calibration: RawCalibration? = nil, highlights: HighlightMask? = nil,
                columns: Int = 32, rows: Int = 24, targetSamples: Int = 16384) {
        precondition(columns > 0 && rows > 0 && targetSamples > 0, "a grid and a sample count are needed")
        self.columns = columns
        self.rows = rows
        var gains = SIMD3(appliedGains.red, appliedGains.green, appliedGains.blue)
        if case .bayer16 = buffer.format { gains = SIMD3(repeating: 1) }
        let samples = Self.samples(of: buffer, calibration: calibration, highlights: highlights, columns: columns, rows: rows,
                                   targetSamples: targetSamples, inverseGains: 1 / gains.replacing(with: 1, where: .!(gains .> 0)))
        cells = Self.cells(keeping: samples, columns: columns, rows: rows)
    }

    /// One cell holding a frame's mean linear colour (`FrameStatistics.channelMeans`, made
    /// with `appliedGains`): plain grey world, with no regions to leave out.
    public init(_ statistics: FrameStatistics, appliedGains: WhiteBalanceGains) {
        let gains = SIMD3(appliedGains.red, appliedGains.green, appliedGains.blue)
        let rgb = statistics.channelMeans / gains.replacing(with: 1, where: .!(gains .> 0))
        self.init(columns: 1, rows: 1, cells: [Cell(rgb: rgb, sampleCount: 1)])
    }

    /// The centre of cell `index`, normalised to the frame.
    func center(_ index: Int) -> NormalizedPoint {
        NormalizedPoint(x: (Double(index % columns) + 0.5) / Double(columns), y: (Double(index / columns) + 0.5) / Double(rows))
    }

    // MARK: Sampling

    /// One sample: its cell, its linear RGB before white balance (nil when clipped), and whether
    /// it lies on a light source.
    private struct Sample {
        var cell: Int
        var rgb: SIMD3<Double>?
        var onLightSource: Bool
    }

    private static func samples(of buffer: PixelBuffer, calibration: RawCalibration?, highlights: HighlightMask?, columns: Int, rows: Int,
                                targetSamples: Int, inverseGains: SIMD3<Double>) -> [Sample] {
        let width = buffer.width, height = buffer.height
        let step = max(1, Int((Double(width * height) / Double(targetSamples)).squareRoot()))
        let columnOf = (0..<width).map { $0 * columns / width }
        let lightSource = HighlightMask.Kind.lightSource.rawValue
        var samples: [Sample] = []
        samples.reserveCapacity((width / step + 1) * (height / step + 1))
        withExtendedLifetime(buffer) {
            let sampler = ColorSampler(buffer, calibration: calibration)
            guard sampler.hasColor else { return }
            for y in Swift.stride(from: step / 2, to: height, by: step) {
                let rowBase = (y * rows / height) * columns
                let highlightRow = highlights.map { (y * $0.rows / height) * $0.columns }
                for x in Swift.stride(from: step / 2, to: width, by: step) {
                    let onSource = highlights.map { $0.kinds[highlightRow! + x * $0.columns / width] == lightSource } ?? false
                    let rgb = sampler.linearRGB(x: x, y: y).map { $0 * inverseGains }
                    samples.append(Sample(cell: rowBase + columnOf[x], rgb: rgb, onLightSource: onSource))
                }
            }
        }
        return samples
    }

    /// The cells of `samples`, each the mean of its samples that show the light's colour (see the
    /// type's summary). A clipped sample counts as full scale in its cell's brightness.
    private static func cells(keeping samples: [Sample], columns: Int, rows: Int) -> [Cell] {
        let count = columns * rows
        var brightness = [Double](repeating: 0, count: count), totals = [Int](repeating: 0, count: count)
        var lit = [Bool](repeating: false, count: count)
        for sample in samples {
            brightness[sample.cell] += sample.rgb.map(ColorTemperature.luminance) ?? 1
            totals[sample.cell] += 1
            if sample.onLightSource { lit[sample.cell] = true }
        }
        let means = (0..<count).map { totals[$0] > 0 ? brightness[$0] / Double(totals[$0]) : 0 }
        let surfaces = (0..<count).filter { totals[$0] > 0 && !lit[$0] }.map { means[$0] }
        let lowerQuartile = surfaces.isEmpty ? 0 : surfaces.sorted()[surfaces.count / 4]
        let sky = skyCells(means, columns: columns, rows: rows, level: skyRatio * lowerQuartile)
        let brightest = brightRatio * lowerQuartile
        var sums = [SIMD3<Double>](repeating: .zero, count: count), kept = [Int](repeating: 0, count: count)
        for sample in samples where !sample.onLightSource && !sky[sample.cell] {
            guard let rgb = sample.rgb, ColorTemperature.luminance(rgb) <= brightest else { continue }
            sums[sample.cell] += rgb
            kept[sample.cell] += 1
        }
        return (0..<count).map { Cell(rgb: kept[$0] > 0 ? sums[$0] / Double(kept[$0]) : .zero, sampleCount: kept[$0], totalCount: totals[$0]) }
    }

    /// The cells joined to the top row through cells all at least `level` bright.
    private static func skyCells(_ means: [Double], columns: Int, rows: Int, level: Double) -> [Bool] {
        var sky = [Bool](repeating: false, count: columns * rows)
        guard level > 0 else { return sky }
        var stack = (0..<columns).filter { means[$0] >= level }
        for cell in stack { sky[cell] = true }
        while let cell = stack.popLast() {
            let column = cell % columns, row = cell / columns
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let x = column + dx, y = row + dy
                guard x >= 0, x < columns, y >= 0, y < rows else { continue }
                let next = y * columns + x
                if !sky[next] && means[next] >= level {
                    sky[next] = true
                    stack.append(next)
                }
            }
        }
        return sky
    }
}
