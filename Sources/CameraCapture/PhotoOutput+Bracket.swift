import CameraCore
import CameraISP

extension PhotoOutput {
    /// Takes a bracket at `offsets` through the stream's capture loop: the frame current at the
    /// request (or the first to come) says whether the camera offers brackets.
    func shootBracket(_ offsets: [Double]) async throws(PhotoCaptureError) -> BracketCapture {
        let current = try await nextFrame(after: nil, converged: false, within: frameWait)
        guard let stream = current.bracket else {
            throw .unsupported("a bracketed photo needs the camera's raw frames, and this stream's format is not raw — "
                + "choose a raw (bayer16) format, or take the photo without a bracket")
        }
        return try await stream.capture(offsets, for: self, within: frameWait * (BracketSequence.framesPerExposure * offsets.count))
    }

    /// The bracket's frame `raw` as a picture of its own, at its own exposure (`BracketRenderer`).
    static func picture(of raw: Frame, in bracket: BracketCapture) throws(PhotoCaptureError) -> CapturedFrame {
        do {
            return bracket.frame.replacingPicture(try BracketRenderer.render(frame: raw, gain: bracket.renderGain,
                                                                             toneMapping: bracket.toneMapping, format: bracket.frame.buffer.format))
        } catch {
            throw .processingFailed(error.description)
        }
    }

    /// The bracket made into the photo's frame (`BracketRenderer`).
    static func fused(_ bracket: BracketCapture) throws(PhotoCaptureError) -> CapturedFrame {
        do {
            let picture = try BracketRenderer.render(bracket.frames, offsets: bracket.offsets, gain: bracket.renderGain,
                                                     toneMapping: bracket.toneMapping, format: bracket.frame.buffer.format)
            return bracket.frame.replacingPicture(picture)
        } catch {
            throw .processingFailed(error.description)
        }
    }
}
