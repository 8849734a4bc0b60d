import Foundation
import CameraCore

/// Everything the exposure engine, the viewfinder and the advice need to know about one frame,
/// computed in one analysis (see `FrameAnalyzer`).
public struct FrameStatistics: Sendable {
    /// The analysed region's size in pixels.
    public let size: PixelSize
    /// The sampling step the histogram, linear means and cells were taken with.
    public let sampleStep: Int
    /// Mean Rec. 709 luma of the encoded values, 0…1 (the brightness bar), over every pixel.
    public let brightness: Double
    /// Mean linear luminance, 0…1 (sRGB-decoded through a LUT), over the samples.
    public let linearMean: Double
    /// Mean linear red, green and blue, 0…1, over the samples (for white balance).
    public let channelMeans: SIMD3<Double>
    public let histogram: Histogram
    /// Fraction of samples with luma ≥ 250/255.
    public var clippedFraction: Double { histogram.fraction(in: 250...255) }
    /// Fraction of samples with luma ≤ 5/255.
    public var crushedFraction: Double { histogram.fraction(in: 0...5) }
    public let zones: ZoneGrid
    public let cells: CellGrid
    /// Mean encoded luma (0…1) of every row of the region, top to bottom (for flicker detection).
    public let rowMeans: [Float]
    /// The sun, other light sources and bright sky, on the cell grid.
    public let highlights: HighlightMask

    /// These statistics with every light source taken for broken sky: what the exposure engine
    /// meters while it holds the scene's clipped blobs to be sky or a wall (`SunAwareExposure`).
    public func withoutLightSources() -> FrameStatistics {
        replacingHighlights(highlights.withoutLightSources(cells))
    }

    /// These statistics with the light sources `remembered` from earlier frames kept where they
    /// are still clipped (`StreamAnalyzer`).
    func remembering(_ remembered: [Bool]) -> FrameStatistics {
        replacingHighlights(highlights.remembering(remembered, cells: cells))
    }

    private func replacingHighlights(_ highlights: HighlightMask) -> FrameStatistics {
        FrameStatistics(size: size, sampleStep: sampleStep, brightness: brightness, linearMean: linearMean,
                        channelMeans: channelMeans, histogram: histogram, zones: zones, cells: cells, rowMeans: rowMeans,
                        highlights: highlights)
    }

    /// Stops between the 2nd and 98th percentile of linear luminance (the darker end floored at
    /// one 8-bit step, so a black frame reads as about 12 stops, not infinity).
    public var dynamicRange: Double {
        let low = max(SRGB.decode(histogram.percentile(0.02)), Double(SRGB.linearOf8Bit[1]))
        let high = max(SRGB.decode(histogram.percentile(0.98)), low)
        return log2(high / low)
    }
}
