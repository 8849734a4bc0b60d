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
            return try picture(of: Frame(buffer: merged.buffer, presentationTime: source.presentationTime,
                                         sequenceNumber: source.sequenceNumber, metadata: metadata),
                               gain: gain.movedBy(exposure: offsets[reference]), toneMapping: toneMapping, format: format)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "merging the bracket: \(error)")
        }
    }

    /// One frame of a bracket as a picture of its own, rendered with `gain` — the base exposure's —
    /// so that it shows its offset: the frame a photographer keeps to fuse later.
    public static func render(frame: Frame, gain: RenderGain, toneMapping: ToneMapping, format: PixelFormat) throws(Failure) -> Frame {
        do {
            return try picture(of: frame, gain: gain, toneMapping: toneMapping, format: format)
        } catch {
            throw Failure(description: "rendering a bracket frame: \(error)")
        }
    }

    /// `raw` developed and rendered with `gain` into a new `format` buffer; the metadata is the raw
    /// frame's, without its calibration.
    private static func picture(of raw: Frame, gain: RenderGain, toneMapping: ToneMapping, format: PixelFormat) throws -> Frame {
        var pipeline = ImagePipeline()
        try pipeline.develop(raw)
        let picture = try PixelBuffer(format: format, width: raw.buffer.width, height: raw.buffer.height)
        try pipeline.render(gain, toneMapping: toneMapping, into: picture)
        var metadata = raw.metadata
        metadata.rawCalibration = nil
        return Frame(buffer: picture, presentationTime: raw.presentationTime, sequenceNumber: raw.sequenceNumber, metadata: metadata)
    }
}
