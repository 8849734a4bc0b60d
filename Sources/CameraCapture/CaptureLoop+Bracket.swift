import CameraCore
import CameraISP

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

/// The bracketed photos of a stream whose device delivers raw frames.
typealias StreamBracket = StreamRequests<[Double], BracketCapture>

extension StreamBracket {
    convenience init() {
        self.init(name: "bracketed photo", failure: PhotoCaptureError.bracketFailed)
    }
}

extension CaptureLoop {
    /// Takes the next bracket asked for when no photo of several frames is being taken (its first
    /// exposure is held when this frame advances it); drops one whose requester gave up, and fails
    /// one whose offsets the device cannot reach.
    mutating func startBracket(_ metadata: FrameMetadata) {
        if let current = bracketPhoto, !bracket.isInProgress(current.request.id) {
            endBracket()
        }
        guard bracketPhoto == nil, flashPhoto == nil, let request = bracket.start() else { return }
        do {
            let sequence = try BracketSequence(offsets: request.order, base: engine.currentControls(metadata), renderGain: engine.renderGain,
                                               capabilities: device.capabilities)
            bracketPhoto = (sequence, request)
        } catch {
            bracket.complete(request.id, with: .failure(error))
        }
    }

    /// The bracket's step after the device's `frame` (`.wait` when none is being taken); a new
    /// exposure is applied with this frame's controls and held from the next 3A update on.
    mutating func advanceBracket(_ frame: Frame) -> BracketSequence.Step {
        guard var photo = bracketPhoto else { return .wait }
        let step = photo.sequence.advance(frame)
        bracketPhoto = photo
        if case .expose(let controls) = step { engine.hold(controls, renderGain: photo.sequence.renderGain) }
        return step
    }

    /// Tells the bracket being taken that the device lost a frame.
    mutating func bracketFrameLost() {
        guard var photo = bracketPhoto else { return }
        let step = photo.sequence.frameLost()
        bracketPhoto = photo
        finishBracket(step, frames: [])
    }

    /// Answers the request when `step` ends the bracket: with its raw frames and `frames[route]`,
    /// this frame as its requester receives it, or the failure.
    mutating func finishBracket(_ step: BracketSequence.Step, frames: [CapturedFrame]) {
        guard let (sequence, request) = bracketPhoto else { return }
        let result: Result<BracketCapture, PhotoCaptureError>
        switch step {
        case .wait, .expose:
            return
        case .captured(let raw):
            let route = routes.firstIndex { ObjectIdentifier($0.output) == request.requester }
            // The longer frames hold the signal the noise floor kept from the base's lift (the
            // exposure, held while the bracket ran, has the shortfall it was metered with).
            var renderGain = sequence.renderGain
            renderGain.ev += min(engine.controls.exposure.constraints.shortfall, max(sequence.offsets.max() ?? 0, 0))
            result = route.map {
                .success(BracketCapture(offsets: sequence.offsets, frames: raw, renderGain: renderGain,
                                        toneMapping: device.settings.toneMapping, frame: frames[$0]))
            } ?? .failure(.notRunning)
        case .failed(let message):
            result = .failure(.bracketFailed(message))
        }
        bracket.complete(request.id, with: result)
        endBracket()
    }

    /// Auto-exposure, white balance and focus run again.
    private mutating func endBracket() {
        bracketPhoto = nil
        engine.releaseHold()
    }
}
