import CameraCore
import Foundation

/// Finds mains flicker in a rolling-shutter stream: a light pulsing at 100 or 120 Hz brightens
/// rows periodically, every 1/(f·rowReadoutTime) rows. Comparing each frame's row means with the
/// previous frame's cancels the scene and leaves the bands, whose phase moves between frames.
///
/// Bands that move by a whole number of cycles from one frame to the next stand still and cancel
/// too: at 30 fps 120 Hz is invisible, at 25 fps 100 Hz. A frequency whose bands would stand still
/// is therefore never the answer, which also tells 100 from 120 Hz in a frame read out too fast
/// to hold many bands of either.
public struct FlickerDetector: Sendable {
    /// The flicker frequencies looked for: 50 Hz and 60 Hz mains.
    public static let frequencies: [Double] = [100, 120]
    /// Smallest band amplitude (relative brightness) reported as flicker.
    public static let minimumAmplitude = 0.02
    /// Least part of the change between two frames' rows that the bands must explain: a light
    /// switched on mid-frame or a moving view also correlates with a sinusoid, but explains little
    /// of it (0.17 for step-change's light step, under 0.15 for the other built-in scenes), where
    /// flicker-office's 100 Hz bands explain 0.66–0.99.
    public static let minimumExplained = 0.5
    /// The largest change of exposure, in EV, between two frames that are compared: flicker-office's
    /// bands explain over 0.9 of the change across the steps of up to 0.19 EV a settling loop
    /// makes, where the built-in scenes' steps of 0.31 EV and more while converging read as bands
    /// explaining 0.68–0.71.
    public static let maximumExposureStep = 0.25
    /// The least part of a cycle a frequency's bands must move between frames to be looked for;
    /// bands moving a tenth of a cycle still leave 0.62 of their amplitude in the frames' ratio.
    public static let minimumBandMovement = 0.1

    private var previous: [Float]?
    /// The previous frame's total exposure, digital gain included.
    private var previousExposure: Double?

    public init() {}

    /// Feeds one frame's row means and the settings it was made with; returns the flicker
    /// frequency found, or nil. Two frames whose exposures differ by `maximumExposureStep` or
    /// more are not compared: their rows differ by level through the tone curve and clipping,
    /// which reads as bands.
    public mutating func update(rowMeans: [Float], metadata: FrameMetadata, frameInterval: Double) -> Double? {
        let exposure = metadata.totalExposure
        defer {
            previous = rowMeans
            previousExposure = exposure
        }
        let rowReadoutTime = metadata.rowReadoutTime
        guard let previous, let previousExposure, previous.count == rowMeans.count, rowReadoutTime > 0,
              abs(log2(exposure / previousExposure)) < FlickerDetector.maximumExposureStep else { return nil }
        // Log ratios of rows that are neither black nor clipped in both frames.
        var rows: [Double] = [], ratios: [Double] = []
        for (row, (now, before)) in zip(rowMeans, previous).enumerated() where now > 0.02 && before > 0.02 && now < 0.95 && before < 0.95 {
            rows.append(Double(row))
            ratios.append(log(Double(now) / Double(before)))
        }
        guard ratios.count >= 16 else { return nil }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        let moving = FlickerDetector.frequencies.filter { frequency in
            let cycles = frequency * frameInterval
            return abs(cycles - cycles.rounded()) >= FlickerDetector.minimumBandMovement
        }
        guard !moving.isEmpty else { return nil }
        let best = moving.map { frequency -> (Double, Double) in
            let radiansPerRow = 2 * Double.pi * frequency * rowReadoutTime
            var cosine = 0.0, sine = 0.0
            for (row, ratio) in zip(rows, ratios) {
                cosine += (ratio - mean) * cos(radiansPerRow * row)
                sine += (ratio - mean) * sin(radiansPerRow * row)
            }
            return (frequency, 2 * (cosine * cosine + sine * sine).squareRoot() / Double(ratios.count))
        }.max { $0.1 < $1.1 }!
        // A sinusoid of amplitude a has variance a²/2: how much of the rows' change the bands explain.
        let variance = ratios.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(ratios.count)
        let explained = best.1 * best.1 / 2 / variance
        return best.1 >= FlickerDetector.minimumAmplitude && explained >= FlickerDetector.minimumExplained ? best.0 : nil
    }
}
