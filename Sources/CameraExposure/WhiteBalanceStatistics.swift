import CameraCore
import CameraMetering
import Foundation

/// The colour of a frame's regions as the sensor saw them (before white balance), and the grey-
/// world estimate of the light with outlier regions rejected.
///
/// The frame is sampled on a sparse grid (about `targetSamples` pixels) into `columns × rows`
/// blocks. Each sample is decoded to linear RGB (sRGB curve; BT.709 for Y'CbCr formats) and
/// divided by the white-balance gains the frame was made with, so the statistics do not depend on
/// the gains in effect; samples with a channel at or above 250/255 are left out (their colour is
/// clipped). `estimate()` then keeps the blocks that can be trusted to be grey on average:
///
/// 1. not clipped (at least half their samples unclipped) and not near black;
/// 2. not strongly coloured: the block's chromaticity lies near the Planckian locus (a grey under
///    some plausible light), within `Rejection.maximumLocusDistance` in log(R/G), log(B/G);
/// 3. not an outlier: within `Rejection.outlierDistance` of the median chromaticity of the rest;
///
/// and averages their linear RGB (grey world). A gray8 buffer has no colour and gives no blocks.
public struct WhiteBalanceStatistics: Sendable {
    /// One region's mean colour.
    public struct Block: Sendable, Hashable {
        /// Mean linear RGB before white balance, of the unclipped samples.
        public var rgb: SIMD3<Double>
        /// Samples that went into `rgb`.
        public var sampleCount: Int
        /// Samples left out because a channel was clipped.
        public var clippedCount: Int

        public init(rgb: SIMD3<Double>, sampleCount: Int, clippedCount: Int = 0) {
            self.rgb = rgb
            self.sampleCount = sampleCount
            self.clippedCount = clippedCount
        }
    }

    /// The thresholds of the outlier rejection.
    public struct Rejection: Sendable, Hashable {
        /// Blocks with more than this fraction of clipped samples are left out.
        public var maximumClippedFraction = 0.5
        /// Blocks whose mean linear luminance, as encoded (after the applied gains), is below
        /// this are left out: noise and 8-bit steps dominate their colour.
        public var minimumLuminance = 0.004
        /// The largest distance, in natural-log units of (R/G, B/G), from the chromaticity of
        /// a grey under any light on the locus (2000…12000 K).
        public var maximumLocusDistance = 0.25
        /// The largest distance from the median chromaticity of the blocks kept so far.
        public var outlierDistance = 0.2

        public init() {}
    }

    public let columns: Int
    public let rows: Int
    /// `columns × rows` blocks, row by row (blocks without samples have `sampleCount` 0).
    public let blocks: [Block]

    public init(columns: Int, rows: Int, blocks: [Block]) {
        precondition(blocks.count == columns * rows, "one block per grid cell")
        self.columns = columns
        self.rows = rows
        self.blocks = blocks
    }

    /// The statistics of `frame`, taken under the white-balance gains in its metadata.
    public init(frame: Frame, columns: Int = 16, rows: Int = 12, targetSamples: Int = 8192) {
        self.init(buffer: frame.buffer, appliedGains: frame.metadata.whiteBalanceGains, calibration: frame.metadata.rawCalibration,
                  columns: columns, rows: rows, targetSamples: targetSamples)
    }

    /// The statistics of `buffer`, whose colours were made with `appliedGains` (ignored for
    /// bayer16, whose samples have no white balance; their black and white levels are
    /// `calibration`'s, or 0 and full scale without one).
    public init(buffer: PixelBuffer, appliedGains: WhiteBalanceGains, calibration: RawCalibration? = nil,
                columns: Int = 16, rows: Int = 12, targetSamples: Int = 8192) {
        precondition(columns > 0 && rows > 0 && targetSamples > 0, "a grid and a sample count are needed")
        let width = buffer.width, height = buffer.height
        let step = max(1, Int((Double(width * height) / Double(targetSamples)).squareRoot()))
        var sums = [SIMD3<Double>](repeating: .zero, count: columns * rows)
        var counts = [Int](repeating: 0, count: columns * rows), clipped = counts
        let columnOf = (0..<width).map { $0 * columns / width }
        var gains = SIMD3(appliedGains.red, appliedGains.green, appliedGains.blue)
        if case .bayer16 = buffer.format { gains = SIMD3(repeating: 1) }
        let inverseGains = 1 / gains.replacing(with: 1, where: .!(gains .> 0))
        withExtendedLifetime(buffer) {
            let sampler = ColorSampler(buffer, calibration: calibration)
            guard sampler.hasColor else { return }
            for y in Swift.stride(from: step / 2, to: height, by: step) {
                let rowBase = (y * rows / height) * columns
                for x in Swift.stride(from: step / 2, to: width, by: step) {
                    let index = rowBase + columnOf[x]
                    guard let linear = sampler.linearRGB(x: x, y: y) else {
                        clipped[index] += 1
                        continue
                    }
                    sums[index] += linear
                    counts[index] += 1
                }
            }
        }
        self.columns = columns
        self.rows = rows
        blocks = (0..<(columns * rows)).map { index in
            let count = counts[index]
            return Block(rgb: count > 0 ? sums[index] / Double(count) * inverseGains : .zero, sampleCount: count,
                         clippedCount: clipped[index])
        }
    }

    /// One block holding a frame's mean linear colour (`FrameStatistics.channelMeans`, made
    /// with `appliedGains`): plain grey world, with no regions to reject.
    public init(_ statistics: FrameStatistics, appliedGains: WhiteBalanceGains) {
        let gains = SIMD3(appliedGains.red, appliedGains.green, appliedGains.blue)
        let rgb = statistics.channelMeans / gains.replacing(with: 1, where: .!(gains .> 0))
        self.init(columns: 1, rows: 1, blocks: [Block(rgb: rgb, sampleCount: 1)])
    }

    // MARK: Estimate

    /// The blocks `estimate` averages: usable, near the locus, not outliers.
    public func acceptedBlocks(_ rejection: Rejection = Rejection()) -> [Block] {
        let usable = blocks.filter { block in
            let total = block.sampleCount + block.clippedCount
            guard block.sampleCount > 0, Double(block.clippedCount) <= rejection.maximumClippedFraction * Double(total),
                  block.rgb.min() > 0 else { return false }
            return ColorTemperature.luminance(block.rgb) >= rejection.minimumLuminance
        }
        let greyish = usable.filter { WhiteBalanceStatistics.locusDistance(logChroma($0.rgb)) <= rejection.maximumLocusDistance }
        guard !greyish.isEmpty else { return [] }
        let chromas = greyish.map { logChroma($0.rgb) }
        let centre = SIMD2(median(chromas.map(\.x)), median(chromas.map(\.y)))
        return zip(greyish, chromas).filter { _, chroma in
            let d = chroma - centre
            return (d * d).sum().squareRoot() <= rejection.outlierDistance
        }.map(\.0)
    }

    /// The light's linear RGB (unit luminance, before white balance) by grey world over the
    /// accepted blocks — the mean of their colours — or nil when no block is accepted.
    public func grayWorld(_ rejection: Rejection = Rejection()) -> SIMD3<Double>? {
        let accepted = acceptedBlocks(rejection)
        guard !accepted.isEmpty else { return nil }
        let sum = accepted.reduce(SIMD3<Double>.zero) { $0 + $1.rgb }
        let luminance = ColorTemperature.luminance(sum)
        return luminance > 0 ? sum / luminance : nil
    }

    /// The light's colour temperature and tint by grey world (see `grayWorld`), or nil.
    public func estimate(_ rejection: Rejection = Rejection()) -> ColorTemperature? {
        grayWorld(rejection).flatMap { ColorTemperature(relativeRGB: $0) }
    }

    // MARK: Chromaticity helpers

    /// (ln R/G, ln B/G) of a grey under the locus from 2000 to 12000 K, every 5 mireds.
    private static let locusChromas: [SIMD2<Double>] = {
        let lowest = 1e6 / ColorTemperature.range.upperBound, highest = 1e6 / ColorTemperature.range.lowerBound
        return Swift.stride(from: lowest, through: highest + 4.999, by: 5).map {
            logChroma(ColorTemperature(1e6 / min($0, highest)).relativeRGB)
        }
    }()

    /// The distance from `chroma` to the locus polyline.
    static func locusDistance(_ chroma: SIMD2<Double>) -> Double {
        var best = Double.infinity
        for (a, b) in zip(locusChromas, locusChromas.dropFirst()) {
            let segment = b - a
            let t = min(max(((chroma - a) * segment).sum() / max((segment * segment).sum(), 1e-18), 0), 1)
            let d = chroma - (a + segment * t)
            best = min(best, (d * d).sum())
        }
        return best.squareRoot()
    }
}

/// (ln R/G, ln B/G) of a positive colour.
private func logChroma(_ rgb: SIMD3<Double>) -> SIMD2<Double> {
    SIMD2(log(rgb.x / rgb.y), log(rgb.z / rgb.y))
}

/// Linear RGB of single pixels of a buffer in any colour format, read in place.
private struct ColorSampler {
    private let buffer: PixelBuffer
    /// The 8-bit formats' pixels (nil for bayer16, read here by 2×2 quads).
    private let reader: (any PixelReader)?
    private let planes: [UnsafeRawPointer]
    private let strides: [Int]
    /// A bayer16 sample's black level and the span to its white level.
    private let black: Double, span: Double

    init(_ buffer: PixelBuffer, calibration: RawCalibration?) {
        self.buffer = buffer
        let bits = if case .bayer16(_, let bits) = buffer.format { bits } else { 8 }
        black = Double(calibration?.blackLevel ?? 0)
        span = Double(calibration?.whiteLevel ?? (1 << bits) - 1) - black
        reader = buffer.pixelReader()
        planes = buffer.planes.indices.map { UnsafeRawPointer(buffer.baseAddress(plane: $0)) }
        strides = buffer.planes.map(\.bytesPerRow)
    }

    var hasColor: Bool {
        if case .gray8 = buffer.format { return false }
        return true
    }

    /// Linear RGB of pixel (`x`, `y`) (for bayer16: of its 2×2 quad), or nil when a channel is
    /// clipped (≥ 250/255 of full scale).
    func linearRGB(x: Int, y: Int) -> SIMD3<Double>? {
        guard let reader else { return quadRGB(x: x, y: y) }
        let encoded = reader.pixel(x: x, y: y)
        guard max(encoded.red, encoded.green, encoded.blue) < 250 else { return nil }
        let curve = SRGB.linearOf8Bit
        return SIMD3(Double(curve[Int(encoded.red)]), Double(curve[Int(encoded.green)]), Double(curve[Int(encoded.blue)]))
    }

    /// Linear RGB of the bayer16 quad holding pixel (`x`, `y`), or nil when clipped.
    private func quadRGB(x: Int, y: Int) -> SIMD3<Double>? {
        guard case .bayer16(let pattern, _) = buffer.format else { return nil }
        // Red at the pattern's red site, blue diagonal from it, green on the other two.
        let qx = min(x & ~1, buffer.width - 2), qy = min(y & ~1, buffer.height - 2)
        let (rx, ry) = pattern.redSite
        func sample(_ dx: Int, _ dy: Int) -> Double {
            Double(UInt16(littleEndian: planes[0].loadUnaligned(fromByteOffset: (qy + dy) * strides[0] + (qx + dx) * 2, as: UInt16.self)))
        }
        let rgb = (SIMD3(sample(rx, ry), (sample(1 - rx, ry) + sample(rx, 1 - ry)) / 2, sample(1 - rx, 1 - ry)) - black) / span
        return rgb.max() >= 250.0 / 255 ? nil : rgb
    }
}
