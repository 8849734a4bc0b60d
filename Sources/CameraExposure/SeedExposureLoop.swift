import CameraCore
import CameraMetering
import Foundation

/// The seed article's exposure loop, as written, on top of a phone-like auto-exposure: the device
/// meters the average (whole frame, or the seed's 60% centre crop) to mid-grey, and the app nudges
/// the exposure bias by 2·(0.55 − brightness) when the brightness is off by more than 0.1 — but,
/// as in the article, only while the bias is still about zero, so it adjusts once.
public struct SeedExposureLoop: ExposureAlgorithm {
    public let name: String
    /// Meter only the centre 60% of the frame (the article's suggested improvement).
    public let centerCrop: Bool
    /// The app's exposure bias in EV (the article's `exposureValue`).
    public private(set) var bias = 0.0
    private var filtered: Double?

    /// The article's target brightness and threshold.
    public static let targetBrightness = 0.55
    public static let threshold = 0.1
    /// How fast the underlying device auto-exposure follows (per frame).
    public static let deviceSpeed = 0.5

    public init(centerCrop: Bool) {
        self.centerCrop = centerCrop
        name = centerCrop ? "centre" : "naive"
    }

    public mutating func update(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double {
        let inCrop: (Int, Double, Double) -> Double = { [centerCrop] _, x, y in
            !centerCrop || ((0.2...0.8).contains(x) && (0.2...0.8).contains(y)) ? 1 : 0
        }
        // The app's loop on the brightness it sees (encoded luma of the same area).
        let brightness = centerCrop ? SeedExposureLoop.encodedMean(statistics, where: inCrop) : statistics.brightness
        let difference = SeedExposureLoop.targetBrightness - brightness
        if abs(bias) < 0.05, abs(difference) > SeedExposureLoop.threshold {
            bias = min(max(bias + 2 * difference, -8), 8)
        }
        // The device: average metering of the area to mid-grey × 2^bias, filtered.
        let gain = clippingAwareGain(weightedCells(statistics, weight: inCrop), target: Meter.midGray * pow(2, bias))
        let desired = metadata.totalExposure * gain
        let current = filtered ?? metadata.totalExposure
        let next = current * pow(desired / current, SeedExposureLoop.deviceSpeed)
        filtered = next
        return next
    }

    /// The encoded brightness (0…1) of the cells `weight` selects, from their linear means.
    static func encodedMean(_ statistics: FrameStatistics, where weight: (Int, Double, Double) -> Double) -> Double {
        let cells = weightedCells(statistics, weight: weight)
        let total = cells.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return statistics.brightness }
        return cells.reduce(0) { $0 + $1.weight * SRGB.encode($1.value) } / total
    }
}
