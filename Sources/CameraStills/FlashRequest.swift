import CameraCapture
import CameraCore

/// A flash photo asked of a stream whose device has a flash (`FrameRequests`): the 3A engine
/// holds while `FlashSequence` fires the pre-flash, measures, and fires the flash whose frame is
/// the photo.
struct FlashRequest: FrameSequence {
    private var sequence = FlashSequence()
    /// The flash exposure the pre-flash measured, once the flash lit the photo's frame.
    private(set) var exposure: FlashExposure?

    mutating func begin(_ start: SequenceStart) -> SequenceHold { .forFlash }

    mutating func advance(_ frame: SequenceFrame) -> SequenceStep {
        guard let held = frame.held else { return .wait }
        let step = sequence.advance(frame.statistics, metadata: frame.frame.metadata, held: held, target: frame.subjectTarget)
        if case .lit(let exposure) = step { self.exposure = exposure }
        return self.step(step)
    }

    mutating func frameLost() -> SequenceStep {
        step(sequence.frameLost())
    }

    private func step(_ step: FlashSequence.Step) -> SequenceStep {
        switch step {
        case .wait: .wait
        // The main flash's least power may put its subject over the target: the picture is dimmed that much.
        case .fire(let power): .fire(power: power, dimming: sequence.mainFlash?.expectedError ?? 0)
        case .lit: .done
        case .failed(let message): .failed(message)
        }
    }
}
