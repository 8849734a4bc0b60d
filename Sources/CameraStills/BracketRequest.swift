import CameraCapture
import CameraCore
import CameraISP

/// A bracketed photo asked of a raw stream (`FrameRequests`): the exposures at `offsets` around
/// the one auto-exposure holds when it starts, taken frame by frame (`BracketSequence`).
struct BracketRequest: FrameSequence {
    let offsets: [Double]
    private var sequence: BracketSequence?
    /// How the stream's pictures were tone-mapped when it started (set by `begin`).
    private var toneMapping: ToneMapping?
    /// The device's raw frames, in the order of the offsets, once taken.
    private var frames: [Frame] = []
    /// EV the base's subject stayed under its aim for the noise floor (`ThreeAStatus.exposureShortfall`).
    private var shortfall = 0.0

    init(offsets: [Double]) {
        self.offsets = offsets
    }

    mutating func begin(_ start: SequenceStart) throws(FrameRequestError) -> SequenceHold {
        do {
            sequence = try BracketSequence(offsets: offsets, base: start.controls, renderGain: start.renderGain, capabilities: start.capabilities)
        } catch {
            throw FrameRequestError(.unsupported, error.description)
        }
        toneMapping = start.toneMapping
        return .none
    }

    mutating func advance(_ frame: SequenceFrame) -> SequenceStep {
        guard var sequence else { return .wait }
        let step = sequence.advance(frame.frame)
        self.sequence = sequence
        if case .captured(let raw) = step {
            (frames, shortfall) = (raw, frame.threeA.exposureShortfall)
        }
        return Self.step(step, renderGain: sequence.renderGain)
    }

    mutating func frameLost() -> SequenceStep {
        guard var sequence else { return .wait }
        let step = sequence.frameLost()
        self.sequence = sequence
        return Self.step(step, renderGain: sequence.renderGain)
    }

    /// The frame's picture keeps the bracket's base look whatever exposure made it.
    func renderGain(for metadata: FrameMetadata) -> RenderGain? {
        sequence?.renderGain(for: metadata)
    }

    /// The photo taken, with `frame` as the requester received the bracket's last frame.
    func capture(_ frame: CapturedFrame) -> BracketCapture {
        // The longer frames hold the signal the noise floor kept from the base's lift.
        var renderGain = sequence?.renderGain ?? .none
        renderGain.ev += min(shortfall, max(offsets.max() ?? 0, 0))
        return BracketCapture(offsets: offsets, frames: frames, renderGain: renderGain, toneMapping: toneMapping ?? .local, frame: frame)
    }

    private static func step(_ step: BracketSequence.Step, renderGain: RenderGain) -> SequenceStep {
        switch step {
        case .wait: .wait
        case .expose(let controls): .hold(controls, renderGain: renderGain)
        case .captured: .done
        case .failed(let message): .failed(message)
        }
    }
}

/// A bracketed photo the capture loop took: the device's raw frames in the order of the offsets,
/// how the base exposure's frames are rendered, and the frame as the output that asked receives
/// it (its statistics, 3A state and orientation describe the photo).
struct BracketCapture: Sendable {
    let offsets: [Double]
    let frames: [Frame]
    let renderGain: RenderGain
    let toneMapping: ToneMapping
    let frame: CapturedFrame

    /// The raw frame the photo is rendered as (`BracketRenderer`'s reference: the offset nearest 0 EV).
    var referenceFrame: Frame { frames[BracketRenderer.referenceIndex(of: offsets)] }
}
