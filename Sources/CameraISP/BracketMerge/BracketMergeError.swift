import CameraCore

/// Why a bracket could not be merged: each case names the frame and the value at fault.
public enum BracketMergeError: Error, Equatable, CustomStringConvertible {
    /// A merge needs a reference and at least one more frame.
    case tooFewFrames(count: Int)
    /// The provenance of a merged sample is an 8-bit mask, one bit per frame.
    case tooManyFrames(count: Int)
    /// The reference index is not one of the frames'.
    case referenceOutOfRange(index: Int, count: Int)
    /// A frame is not a bayer16 mosaic.
    case notBayer(frame: Int, format: PixelFormat)
    /// A frame's format or size differs from the reference's.
    case mismatchedFrame(frame: Int, format: PixelFormat, size: PixelSize, reference: PixelFormat, referenceSize: PixelSize)
    /// A frame's exposure is not a positive number.
    case invalidExposure(frame: Int, exposure: Double)

    public var description: String {
        switch self {
        case .tooFewFrames(let count):
            "cannot merge \(count) frame\(count == 1 ? "" : "s") — a bracket needs a reference and at least one more frame"
        case .tooManyFrames(let count):
            "cannot merge \(count) frames — at most 8 (the provenance keeps one bit per frame); take fewer frames"
        case .referenceOutOfRange(let index, let count):
            "reference frame \(index) is not one of the \(count) frames (0…\(count - 1)) — pass the index of the 0 EV frame"
        case .notBayer(let frame, let format):
            "frame \(frame) is \(format), not a raw bayer16 mosaic — bracket raw frames for the merge"
        case .mismatchedFrame(let frame, let format, let size, let reference, let referenceSize):
            "frame \(frame) is \(size) \(format) but the reference is \(referenceSize) \(reference)"
                + " — capture every frame of a bracket in the same format and size"
        case .invalidExposure(let frame, let exposure):
            "frame \(frame) has exposure \(exposure) — a bracket frame's total exposure must be a positive number of seconds"
        }
    }
}
