import CameraCore
import CameraISP
import Foundation

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

    /// The bracket merged (`BracketMerger`: aligned, ghosts left out), developed and rendered as its
    /// reference frame — the offset nearest 0 — would have been: the photo's frame.
    static func fused(_ bracket: BracketCapture) throws(PhotoCaptureError) -> CapturedFrame {
        let reference = bracket.offsets.indices.min { abs(bracket.offsets[$0]) < abs(bracket.offsets[$1]) }!
        let frames = try bracket.frames.map { (frame) throws(PhotoCaptureError) -> BracketFrame in
            guard let merged = try? BracketFrame(frame) else {
                throw .unsupported("this camera does not say how noisy its raw frames are, which merging them needs — take the photo without a bracket")
            }
            return merged
        }
        do {
            let merged = try BracketMerger().merge(frames, reference: reference)
            let source = bracket.frames[reference]
            var metadata = source.metadata
            metadata.rawCalibration = merged.calibration
            var pipeline = ImagePipeline()
            try pipeline.develop(Frame(buffer: merged.buffer, presentationTime: source.presentationTime, sequenceNumber: source.sequenceNumber,
                                       metadata: metadata))
            let picture = try PixelBuffer(format: bracket.frame.buffer.format, width: merged.buffer.width, height: merged.buffer.height)
            let offset = bracket.offsets[reference]
            let gain = RenderGain(subjectLevel: bracket.renderGain.subjectLevel * pow(2, offset), ev: bracket.renderGain.ev - offset)
            try pipeline.render(gain, toneMapping: bracket.toneMapping, into: picture)
            metadata.rawCalibration = nil
            return bracket.frame.replacingPicture(Frame(buffer: picture, presentationTime: source.presentationTime,
                                                        sequenceNumber: source.sequenceNumber, metadata: metadata))
        } catch {
            throw .processingFailed("merging the bracket: \(error)")
        }
    }
}
