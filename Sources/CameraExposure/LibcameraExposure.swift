import CameraCore
import CameraMetering
import Foundation

/// An auto-exposure modelled on libcamera's Raspberry Pi AGC as documented: centre-weighted zones
/// to a linear target of 0.16, the "normal" constraint (the mean of the brightest 2% at least 0.5)
/// and optionally the "highlight" one (at most 0.8), and a filter of speed 0.2 (√speed when within
/// 20% of the target, full speed for the first frames).
public struct LibcameraExposure: ExposureAlgorithm {
    public let name = "libcamera"
    public let highlightConstraint: Bool
    private var filtered: Double?
    private var frames = 0

    public static let target = 0.16
    public static let speed = 0.2
    public static let fastStartFrames = 3

    public init(highlightConstraint: Bool = true) {
        self.highlightConstraint = highlightConstraint
    }

    public mutating func update(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        var gain = clippingAwareGain(weightedCells(statistics) { _, x, y in MeteringMode.centerWeight(x: x, y: y) },
                                     target: LibcameraExposure.target * pow(2, metadata.exposureBias))
        // The top 2% of the histogram, in linear light.
        let top = LibcameraExposure.upperQuantileMean(statistics.histogram, from: 0.98)
        gain = max(gain, min(0.5 / max(top, 1e-6), gain * 8))             // normal: lower bound
        if highlightConstraint { gain = min(gain, 0.8 / max(top, 1e-6)) }  // highlight: upper bound
        let desired = metadata.totalExposure * gain
        frames += 1
        guard let previous = filtered, frames > LibcameraExposure.fastStartFrames else {
            filtered = desired
            return desired
        }
        let near = desired > 0.8 * previous && desired < 1.2 * previous
        let speed = near ? LibcameraExposure.speed.squareRoot() : LibcameraExposure.speed
        let next = speed * desired + (1 - speed) * previous
        filtered = next
        return next
    }

    /// The mean linear value of the histogram's samples above the `fraction` quantile.
    static func upperQuantileMean(_ histogram: Histogram, from fraction: Double) -> Double {
        let wanted = Double(histogram.total) * (1 - fraction)
        var taken = 0.0, sum = 0.0
        for bin in stride(from: 255, through: 0, by: -1) where taken < wanted {
            let count = min(Double(histogram.counts[bin]), wanted - taken)
            sum += count * SRGB.decode(Double(bin) / 255)
            taken += count
        }
        return taken > 0 ? sum / taken : 0
    }
}
