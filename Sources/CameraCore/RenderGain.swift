import Foundation

/// How the image pipeline places a frame's subject in the picture, as auto-exposure decides it
/// for that frame: the subject's level in the developed linear frame, and the EV it is moved by.
/// The sensor exposure protects the highlights; this gain lifts the subject (and the shadows
/// with it) into view, and the tone mapper keeps what is brighter from clipping.
public struct RenderGain: Sendable, Hashable {
    /// The subject's linear level in the developed frame (1 is the sensor's white level).
    public var subjectLevel: Double
    /// EV the subject is moved by: it ends at `subjectLevel × 2^ev` in the output.
    public var ev: Double
    /// The tone curve's slope at and below the subject, in EV out per EV in (1 keeps the scene's
    /// contrast; less brings the shadows closer to the subject): a scene lifted out of a
    /// highlight-protecting exposure has more range than a picture shows.
    public var contrast: Double
    /// The output level the developed frame's white renders at: 1, or less where a dim scene (dusk,
    /// night) keeps its highlights dim rather than stretched to white.
    public var white: Double

    public init(subjectLevel: Double, ev: Double, contrast: Double = 1, white: Double = 1) {
        self.subjectLevel = subjectLevel
        self.ev = ev
        self.contrast = contrast
        self.white = white
    }

    /// No gain: the frame rendered as the sensor saw it.
    public static let none = RenderGain(subjectLevel: 0.18, ev: 0)

    /// The same picture from a frame exposed `offset` EV more: the subject sits 2^offset higher in
    /// it, and is lifted that much less, to the same output level (a bracket's frames).
    public func movedBy(exposure offset: Double) -> RenderGain {
        RenderGain(subjectLevel: subjectLevel * pow(2, offset), ev: ev - offset, contrast: contrast, white: white)
    }
}
