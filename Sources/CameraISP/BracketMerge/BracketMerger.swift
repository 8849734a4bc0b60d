import CameraCore

/// Merges a bracket of raw frames into one raw frame with less noise and more range than any one of
/// them, in the mosaic domain before demosaic (as HDR+ does), without ghosts of what moved.
///
/// ```
///  frames ─► validate ─► FrameScale each (reference units, clip level, noise)
///    │
///    ├─► CellLuminance (2×2 cells, capped at the pair's clip) ─► BracketAligner ─► shifts
///    │
///    └─► MergeKernel, per 2×2 cell: reference + each frame that passes the ghost test,
///        inverse-variance weighted, clipped samples left out ─► MergedRaw (16 bit, provenance)
/// ```
///
/// The ghost test compares a frame's cell with the reference's: the summed difference of the samples
/// unclipped in both must lie within `ghostThreshold` standard deviations (from the two noise
/// profiles), and a clipped sample, a lower bound, must not lie more than that above the other
/// frame's value. So where the reference is clipped, a shorter frame is accepted when it reaches the
/// reference's clip level (less the threshold's allowance for its noise), and a moving object comes
/// from the reference alone.
///
/// The default threshold, 3 standard deviations, is the lowest half step that keeps the samples
/// left out of a static bracket's noise under 1% (0.25% in mid-tones, 0.5% in deep shadows; 2.5
/// leaves out 1.2–1.7%), so nearly all the noise reduction stays, while a change of three times
/// the noise of a cell's difference is left out. `BracketMergeTests` measures both.
public struct BracketMerger: Sendable {
    /// Standard deviations of the difference beyond which a frame's cell counts as a ghost.
    public var ghostThreshold: Double

    public init(ghostThreshold: Double = 3) {
        self.ghostThreshold = ghostThreshold
    }

    /// Aligns `frames` to `frames[reference]` (the 0 EV frame) and merges them.
    public func merge(_ frames: [BracketFrame], reference: Int) throws(BracketMergeError) -> MergedRaw {
        let pattern = try BracketMerger.validate(frames, reference: reference)
        let referenceExposure = frames[reference].exposure
        let scales = frames.map { FrameScale($0, referenceExposure: referenceExposure) }
        let shifts = align(frames, scales: scales, reference: reference)
        let encoding = MergedEncoding(headroom: max(1, scales.map(\.ratio).max()!))
        let buffer: PixelBuffer
        do {
            buffer = try PixelBuffer(format: .bayer16(pattern, significantBits: 16),
                                     width: frames[reference].buffer.width, height: frames[reference].buffer.height)
        } catch {
            fatalError("a merged frame has the size of a valid bayer16 frame: \(error)")
        }
        var kernel = MergeKernel(frames: frames, scales: scales, shifts: shifts, reference: reference,
                                 threshold: Float(ghostThreshold))
        let provenance = kernel.merge(into: buffer, encoding: encoding)
        return MergedRaw(buffer: buffer, calibration: encoding.calibration(colorMatrix: frames[reference].calibration.colorMatrix),
                         headroom: encoding.headroom, provenance: provenance, shifts: shifts,
                         ghostRejectedFraction: kernel.rejectedFraction)
    }

    /// Each frame's shift against the reference, found on luminance capped at the lower of the
    /// two frames' clip levels.
    private func align(_ frames: [BracketFrame], scales: [FrameScale], reference: Int) -> [BayerShift] {
        var referencePlanes: [Float: FloatPlane] = [:]
        return frames.indices.map { index in
            guard index != reference else { return .zero }
            let ceiling = min(scales[index].clipLevel, scales[reference].clipLevel)
            let referencePlane = referencePlanes[ceiling]
                ?? CellLuminance.plane(frames[reference], scale: scales[reference], ceiling: ceiling)
            referencePlanes[ceiling] = referencePlane
            let plane = CellLuminance.plane(frames[index], scale: scales[index], ceiling: ceiling)
            return BracketAligner.shift(of: plane, against: referencePlane)
        }
    }

    /// Throws unless `frames` are bayer16 mosaics of one format and size with positive exposures;
    /// returns their Bayer order.
    private static func validate(_ frames: [BracketFrame], reference: Int) throws(BracketMergeError) -> BayerPattern {
        guard frames.count >= 2 else { throw .tooFewFrames(count: frames.count) }
        guard frames.count <= 8 else { throw .tooManyFrames(count: frames.count) }
        guard frames.indices.contains(reference) else { throw .referenceOutOfRange(index: reference, count: frames.count) }
        for (index, frame) in frames.enumerated() {
            guard case .bayer16 = frame.buffer.format else { throw .notBayer(frame: index, format: frame.buffer.format) }
        }
        let first = frames[reference].buffer
        let size = PixelSize(width: first.width, height: first.height)
        for (index, frame) in frames.enumerated() {
            let buffer = frame.buffer
            guard buffer.format == first.format, buffer.width == first.width, buffer.height == first.height else {
                throw .mismatchedFrame(frame: index, format: buffer.format, size: PixelSize(width: buffer.width, height: buffer.height),
                                       reference: first.format, referenceSize: size)
            }
            guard frame.exposure > 0, frame.exposure.isFinite else { throw .invalidExposure(frame: index, exposure: frame.exposure) }
        }
        guard case .bayer16(let pattern, _) = first.format else { throw .notBayer(frame: reference, format: first.format) }
        return pattern
    }
}
