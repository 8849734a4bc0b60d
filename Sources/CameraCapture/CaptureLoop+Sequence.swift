import CameraCore
import CameraMetering

extension CaptureLoop {
    /// Takes the next sequence asked for when none is running, holding the 3A engine as it asks;
    /// drops one whose requester gave up waiting, and fails one the stream cannot take.
    mutating func startSequence(_ metadata: FrameMetadata) {
        if let current = sequence, !requests.isInProgress(current.id) {
            endSequence()
        }
        guard sequence == nil, var request = requests.start() else { return }
        let start = SequenceStart(metadata: metadata, controls: engine.currentControls(metadata), renderGain: engine.renderGain,
                                  capabilities: device.capabilities, toneMapping: device.settings.toneMapping)
        do {
            if try request.sequence.begin(start) == .forFlash { engine.holdForFlash(metadata) }
            sequence = request
        } catch {
            requests.complete(request.id, with: .failure(error))
        }
    }

    /// The running sequence's step after this frame (`.wait` when none runs), carried out on the
    /// 3A engine's hold and on `controls`, the frame's controls.
    mutating func advanceSequence(_ frame: Frame, statistics: FrameStatistics, controls: inout SensorControls) -> SequenceStep {
        guard var request = sequence else { return .wait }
        let step = request.sequence.advance(SequenceFrame(
            frame: frame, statistics: statistics, held: engine.hold?.controls,
            subjectTarget: engine.flashTarget(forExposure: frame.metadata.totalExposure), threeA: engine.status))
        sequence = request
        switch step {
        case .hold(let held, let renderGain):
            engine.hold(held, renderGain: renderGain)
            controls.hold(held)
        case .fire(let power, let dimming):
            controls.flashPower = power
            engine.dimHeldPicture(by: dimming)
        case .wait, .done, .failed:
            break
        }
        return step
    }

    /// How the running sequence renders a frame made with `metadata`, else the 3A engine's gain.
    func sequenceRenderGain(_ metadata: FrameMetadata) -> RenderGain {
        sequence?.sequence.renderGain(for: metadata) ?? engine.renderGain
    }

    /// Tells the running sequence that the device lost a frame.
    mutating func sequenceFrameLost() {
        guard var request = sequence else { return }
        let step = request.sequence.frameLost()
        sequence = request
        finishSequence(step, frames: [])
    }

    /// Answers the request when `step` ends the sequence: with the sequence and this frame as its
    /// requester receives it (`frames`, one per route, nil for one that gets no frame), or the failure.
    mutating func finishSequence(_ step: SequenceStep, frames: [CapturedFrame?]) {
        guard let request = sequence else { return }
        switch step {
        case .wait, .hold, .fire:
            return
        case .done:
            let frame = zip(routes, frames).first { ObjectIdentifier($0.0.output) == request.requester }?.1 ?? nil
            requests.complete(request.id, with: frame.map { .success((request.sequence, $0)) } ?? .failure(FrameRequests.streamEnded))
        case .failed(let message):
            requests.complete(request.id, with: .failure(FrameRequestError(.sequenceFailed, message)))
        }
        endSequence()
    }

    /// Auto-exposure, white balance and focus run again.
    private mutating func endSequence() {
        sequence = nil
        engine.releaseHold()
    }
}
