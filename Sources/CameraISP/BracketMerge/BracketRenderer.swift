import CameraCore
import Foundation

/// A bracket of raw frames made into one picture: merged (`BracketMerger`: aligned, inverse-variance
/// weighted, ghosts left out), developed with the headroom its shorter frames gained, and rendered
/// as its reference frame — the offset nearest 0 EV — would have been. One per photo, off the
/// capture loop: it allocates its own pipeline.
public enum BracketRenderer {
    /// Why a bracket could not be made into a picture.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The index of the reference frame among a bracket's non-empty `offsets`: the offset nearest 0 EV.
    public static func referenceIndex(of offsets: [Double]) -> Int {
        offsets.indices.min { abs(offsets[$0]) < abs(offsets[$1]) }!
    }

    /// The picture of `frames`, taken at `offsets` EV from the exposure that `gain` renders, in
    /// `format`; its metadata is the reference frame's, without the raw calibration.
    public static func render(_ frames: [Frame], offsets: [Double], gain: RenderGain, toneMapping: ToneMapping,
                              format: PixelFormat) throws(Failure) -> Frame {
        guard frames.count == offsets.count, !frames.isEmpty else {
            throw Failure(description: "\(frames.count) frames for \(offsets.count) offsets — give one frame per offset")
        }
        let reference = referenceIndex(of: offsets)
        do {
            let bracket = try frames.map { (frame) throws -> BracketFrame in
                guard let bracketFrame = try BracketFrame(frame) else {
                    throw Failure(description: "the camera does not say how noisy its raw frames are, which merging them needs — "
                        + "take the photo without a bracket")
                }
                return bracketFrame
            }
            let merged = try BracketMerger().merge(bracket, reference: reference)
            let source = frames[reference]
            var metadata = source.metadata
            metadata.rawCalibration = merged.calibration
            var pipeline = ImagePipeline()
            try pipeline.develop(Frame(buffer: merged.buffer, presentationTime: source.presentationTime, sequenceNumber: source.sequenceNumber,
                                       metadata: metadata))
            let picture = try PixelBuffer(format: format, width: merged.buffer.width, height: merged.buffer.height)
            try pipeline.render(gain.movedBy(exposure: offsets[reference]), toneMapping: toneMapping, into: picture)
            metadata.rawCalibration = nil
            return Frame(buffer: picture, presentationTime: source.presentationTime, sequenceNumber: source.sequenceNumber, metadata: metadata)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "merging the bracket: \(error)")
        }
    }
}
