import Foundation

/// Finds mains flicker in a rolling-shutter stream: a light pulsing at 100 or 120 Hz brightens
/// rows periodically, every 1/(f·rowReadoutTime) rows. Comparing each frame's row means with the
/// previous frame's cancels the scene and leaves the bands, whose phase moves between frames.
///
/// Limit: when the frame rate is a whole fraction of the flicker (e.g. 30 fps under 120 Hz) the
/// bands stand still and cancel too; they are then invisible frame to frame.
public struct FlickerDetector: Sendable {
    /// The flicker frequencies looked for: 50 Hz and 60 Hz mains.
    public static let frequencies: [Double] = [100, 120]
    /// Smallest band amplitude (relative brightness) reported as flicker.
    public static let minimumAmplitude = 0.02

    private var previous: [Float]?

    public init() {}

    /// Feeds one frame's row means; returns the flicker frequency found, or nil.
    public mutating func update(rowMeans: [Float], rowReadoutTime: Double) -> Double? {
        defer { previous = rowMeans }
        guard let previous, previous.count == rowMeans.count, rowReadoutTime > 0 else { return nil }
        // Log ratios of rows that are neither black nor clipped in both frames.
        var rows: [Double] = [], ratios: [Double] = []
        for (row, (now, before)) in zip(rowMeans, previous).enumerated() where now > 0.02 && before > 0.02 && now < 0.95 && before < 0.95 {
            rows.append(Double(row))
            ratios.append(log(Double(now) / Double(before)))
        }
        guard ratios.count >= 16 else { return nil }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        let best = FlickerDetector.frequencies.map { frequency -> (Double, Double) in
            let radiansPerRow = 2 * Double.pi * frequency * rowReadoutTime
            var cosine = 0.0, sine = 0.0
            for (row, ratio) in zip(rows, ratios) {
                cosine += (ratio - mean) * cos(radiansPerRow * row)
                sine += (ratio - mean) * sin(radiansPerRow * row)
            }
            return (frequency, 2 * (cosine * cosine + sine * sine).squareRoot() / Double(ratios.count))
        }.max { $0.1 < $1.1 }!
        return best.1 >= FlickerDetector.minimumAmplitude ? best.0 : nil
    }
}
