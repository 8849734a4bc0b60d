import CameraCore
import CameraMetering

extension CaptureLoop {
    /// Takes the next flash photo asked for when no photo of several frames (a flash photo, a
    /// bracket) is being taken, holding the exposure for it from this frame's 3A update on; drops
    /// one whose requester gave up waiting.
    mutating func startFlashPhoto(_ metadata: FrameMetadata) {
        guard let flash else { return }
        if let current = flashPhoto, !flash.isInProgress(current.request.id) {
            endFlashPhoto()
        }
        guard flashPhoto == nil, bracketPhoto == nil, let request = flash.start() else { return }
        flashPhoto = (FlashSequence(), request)
        engine.holdForFlash(metadata)
    }

    /// The flash photo's step after this frame (`.wait` when none is being taken).
    mutating func advanceFlashPhoto(_ statistics: FrameStatistics, metadata: FrameMetadata) -> FlashSequence.Step {
        guard var photo = flashPhoto, let held = engine.hold?.controls else { return .wait }
        let step = photo.sequence.advance(statistics, metadata: metadata, held: held, target: engine.flashTarget(forExposure: metadata.totalExposure))
        if case .fire = step, let exposure = photo.sequence.mainFlash {
            engine.dimHeldPicture(by: exposure.expectedError)
        }
        flashPhoto = photo
        return step
    }

    /// Tells the flash photo being taken that the device lost a frame: the flash fires again if
    /// the frame may have carried it, and the photo fails once its sequence has taken too many.
    mutating func flashFrameLost() {
        guard var photo = flashPhoto else { return }
        let step = photo.sequence.frameLost()
        flashPhoto = photo
        finishFlashPhoto(step, frames: [])
    }

    /// Answers the request when `step` ends the flash photo: with the lit frame as its requester
    /// receives it, or the failure.
    mutating func finishFlashPhoto(_ step: FlashSequence.Step, frames: [CapturedFrame]) {
        guard let request = flashPhoto?.request else { return }
        let result: Result<FlashCapture, PhotoCaptureError>
        switch step {
        case .wait, .fire:
            return
        case .lit(let exposure):
            let route = routes.firstIndex { ObjectIdentifier($0.output) == request.requester }
            result = route.map { .success(FlashCapture(frame: frames[$0], exposure: exposure)) } ?? .failure(.notRunning)
        case .failed(let message):
            result = .failure(.flashFailed(message))
        }
        flash?.complete(request.id, with: result)
        endFlashPhoto()
    }

    /// Auto-exposure and white balance run again.
    private mutating func endFlashPhoto() {
        flashPhoto = nil
        engine.releaseHold()
    }
}
