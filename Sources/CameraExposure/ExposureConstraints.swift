/// The sensor exposure's two constraints, in EV from the exposure of the frame they were read on,
/// ordered as in libcamera's HDR mode: the upper keeps the brightest 2% outside light sources
/// under the highlight ceiling, the lower keeps the subject on the noise floor (`NoiseFloor`), and
/// where they conflict the upper wins: the picture keeps its highlights and shows the subject
/// darker rather than noisier, and the `shortfall` says how much longer a frame would hold it (what
/// a bracket's longer frames add).
public struct ExposureConstraints: Sendable, Hashable {
    /// The longest exposure the highlights allow.
    public var upper: Double
    /// The shortest exposure that puts the subject on the noise floor.
    public var lower: Double

    public init(upper: Double, lower: Double) {
        self.upper = upper
        self.lower = lower
    }

    /// No constraint: a loop that sets the sensor for the picture.
    public static let none = ExposureConstraints(upper: .infinity, lower: -.infinity)

    /// EV of exposure the subject lacks at the longest exposure the highlights allow: 0 when both
    /// constraints hold.
    public var shortfall: Double {
        max(lower - upper, 0)
    }
}
