import CameraCore
import CameraMetering
import Foundation

/// An auto-exposure algorithm: after each frame, the total exposure to ask for next.
///
/// Totals are seconds at base sensitivity (duration × analogue × digital gain); an
/// `ExposureProgram` splits them into settings. Algorithms read the settings a frame was really
/// taken with from its metadata, never the ones they asked for, so the sensor's control latency
/// cannot make them oscillate.
public protocol ExposureAlgorithm: Sendable {
    /// Short name for reports: naive, centre, libcamera, sun.
    var name: String { get }
    /// The total exposure to request after a frame with these statistics and metadata.
    mutating func update(_ statistics: FrameStatistics, metadata: FrameMetadata) -> Double
    /// How the image pipeline should render the frame `update` last metered: the two-part
    /// exposure's lift of the subject, `.none` for loops that set the sensor for the picture.
    var renderGain: RenderGain { get }
}

extension ExposureAlgorithm {
    public var renderGain: RenderGain { .none }
}

/// The gain that brings a weighted mean of linear values to `target`, allowing for values that
/// clip at 1 as they are raised (what libcamera's computeGain iterates towards): solves
/// Y(g) = target, Y(g) = Σ wᵢ·min(vᵢ·g, 1) / Σ wᵢ, by bisection — Y never decreases with g.
public func clippingAwareGain(_ values: [(value: Double, weight: Double)], target: Double) -> Double {
    let totalWeight = values.reduce(0) { $0 + $1.weight }
    guard totalWeight > 0 else { return 1 }
    func mean(at gain: Double) -> Double {
        values.reduce(0) { $0 + $1.weight * min($1.value * gain, 1) } / totalWeight
    }
    let limit = 4096.0
    // Clipping only lowers Y, so target ÷ Y(1) is a lower bound.
    var low = min(max(target / max(mean(at: 1), 1e-9), 1 / limit), limit), high = limit
    if mean(at: low) >= target { return low }
    if mean(at: high) < target { return high }
    for _ in 0..<50 {
        let middle = (low * high).squareRoot()
        if mean(at: middle) < target { low = middle } else { high = middle }
    }
    return (low * high).squareRoot()
}

/// The cells of a frame as (linear mean, weight) pairs for a weighting function of the cell's
/// normalised centre.
func weightedCells(_ statistics: FrameStatistics, weight: (_ cell: Int, _ x: Double, _ y: Double) -> Double) -> [(value: Double, weight: Double)] {
    let cells = statistics.cells
    return (0..<(cells.columns * cells.rows)).compactMap { cell in
        guard let mean = cells.mean(cell) else { return nil }
        let centre = cells.center(cell)
        let w = weight(cell, centre.x, centre.y) * Double(cells.sampleCounts[cell])
        return w > 0 ? (mean, w) : nil
    }
}
