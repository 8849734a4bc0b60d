import CameraCore
import CameraISP
import CameraMetering

/// A photo of several frames that an output asks the capture loop for (a flash photo, a bracket):
/// the loop shows it each frame before applying that frame's controls, holds the controls it asks
/// for, and hands the requester the frame that ends it (`FrameRequests`). The frames it asked for
/// are found by their metadata — what made them — never by counting.
public protocol FrameSequence: Sendable {
    /// Starts on the frame `start` describes, before the 3A engine runs on it; returns whether the
    /// engine holds exposure, white balance and focus as they stand (a flash photo), or throws
    /// when the sequence cannot be taken on this stream.
    mutating func begin(_ start: SequenceStart) throws(FrameRequestError) -> SequenceHold
    /// The step after `frame`, a frame of the stream made while the sequence runs.
    mutating func advance(_ frame: SequenceFrame) -> SequenceStep
    /// The step after a frame the device lost (dropped, skipped, or in a stream restart).
    mutating func frameLost() -> SequenceStep
    /// How a frame made with `metadata` is rendered while the sequence runs; nil: as the 3A engine renders it.
    func renderGain(for metadata: FrameMetadata) -> RenderGain?
}

extension FrameSequence {
    public func renderGain(for metadata: FrameMetadata) -> RenderGain? { nil }
}

/// What a sequence starts from: the frame it starts on, what the 3A engine last asked for, and the device.
public struct SequenceStart: Sendable {
    public let metadata: FrameMetadata
    /// The controls auto-exposure, white balance and focus last asked for (the base a bracket is offset from).
    public let controls: SensorControls
    /// How the engine renders the stream's pictures now.
    public let renderGain: RenderGain
    public let capabilities: DeviceCapabilities
    public let toneMapping: ToneMapping
}

/// How the 3A engine runs when a sequence starts.
public enum SequenceHold: Sendable {
    /// It keeps running until the sequence holds controls of its own (`SequenceStep.hold`).
    case none
    /// It holds exposure, white balance and focus as they stand, the automatic exposure's gain
    /// brought down for a flash (`ThreeAEngine.holdForFlash`), until the sequence ends.
    case forFlash
}

/// One frame as a running sequence sees it.
public struct SequenceFrame: Sendable {
    public let frame: Frame
    public let statistics: FrameStatistics
    /// The controls the 3A engine holds for the sequence; nil while it runs freely.
    public let held: SensorControls?
    /// The linear level the subject is aimed at in a frame of this one's exposure under the hold
    /// (`ThreeAEngine.flashTarget`).
    public let subjectTarget: Double
    /// The 3A engine after this frame.
    public let threeA: ThreeAStatus
}

/// What the capture loop does after a sequence's frame.
public enum SequenceStep: Sendable {
    /// Nothing new.
    case wait
    /// Hold these controls from this frame's on, the frames rendered with `renderGain`.
    case hold(SensorControls, renderGain: RenderGain)
    /// Fire the flash at `power` on an upcoming frame, the held pictures rendered `dimming` EV darker.
    case fire(power: Double, dimming: Double)
    /// This frame ends the sequence: its requester receives it.
    case done
    /// The sequence cannot finish; the message says what did not happen.
    case failed(String)
}
