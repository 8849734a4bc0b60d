import CameraCore
import CameraISP

/// A stream's image pipeline: develops each frame, renders the view the 3A engine meters, and
/// renders the picture the outputs get — the subject lifted by the exposure's render gain through
/// the tone mapper the settings choose.
///
/// A raw frame is always rendered (it has no picture of its own) into `pictureFormat`; a
/// processed frame is tone-mapped in its own format, and passed on untouched when there is nothing
/// to do (no gain). Pictures come from a pool of their own, so a slow output holding some never
/// makes the device wait. Its pipeline denoises over time as well as in space, as a stream can.
struct StreamRenderer: Sendable {
    private var pipeline = ImagePipeline(denoising: .temporal)
    private var metering: PixelBuffer?
    private var pictures: BufferPool?

    /// The format a raw stream's pictures are rendered in.
    static let pictureFormat = PixelFormat.bgra8
    /// Pictures that may be out with the outputs at once.
    static let pictureCount = 6

    /// The frame the 3A engine meters: a raw frame developed and rendered as the sensor saw it
    /// (no gain, the plain curve) — the processed frame it would have been — else `frame` itself.
    mutating func meteringFrame(_ frame: Frame) throws(CaptureError) -> Frame {
        guard case .bayer16 = frame.buffer.format else { return frame }
        do {
            try pipeline.develop(frame)
            let buffer = try reuse(&metering, like: frame.buffer, format: Self.pictureFormat)
            try pipeline.renderMeteringView(into: buffer)
            return Frame(buffer: buffer, presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber,
                         metadata: frame.metadata)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
    }

    /// The picture of `frame` with `gain` through `toneMapping`, or nil when no buffer is free
    /// (the frame is dropped, as when the device runs out).
    mutating func picture(_ frame: Frame, gain: RenderGain, toneMapping: ToneMapping) throws(CaptureError) -> Frame? {
        let isRaw: Bool
        if case .bayer16 = frame.buffer.format { isRaw = true } else { isRaw = false }
        if !isRaw && gain == .none { return frame }
        do {
            if !isRaw { try pipeline.develop(frame) }
            let format = isRaw ? Self.pictureFormat : frame.buffer.format
            let pool: BufferPool
            if let existing = pictures, existing.format == format, existing.width == frame.buffer.width, existing.height == frame.buffer.height {
                pool = existing
            } else {
                pool = try BufferPool(format: format, width: frame.buffer.width, height: frame.buffer.height, capacity: Self.pictureCount)
                pictures = pool
            }
            // The pool's one error: every picture is still out with the outputs.
            guard let buffer = try? pool.makeBuffer() else { return nil }
            try pipeline.render(gain, toneMapping: toneMapping, into: buffer)
            var metadata = frame.metadata
            metadata.rawCalibration = nil
            return Frame(buffer: buffer, presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber, metadata: metadata)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
    }

    /// `buffer`, or a new one when it is missing or another size.
    private func reuse(_ buffer: inout PixelBuffer?, like frame: PixelBuffer, format: PixelFormat) throws -> PixelBuffer {
        if let existing = buffer, existing.width == frame.width, existing.height == frame.height { return existing }
        let made = try PixelBuffer(format: format, width: frame.width, height: frame.height)
        buffer = made
        return made
    }
}
