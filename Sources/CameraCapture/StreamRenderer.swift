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
    /// The frame the pipeline holds developed: its buffer and sequence number.
    private var developed: (ObjectIdentifier, UInt64)?

    /// The format a raw stream's pictures are rendered in.
    static let pictureFormat = PixelFormat.bgra8
    /// Pictures that may be out with the outputs at once.
    static let pictureCount = 6

    /// The frame the 3A engine meters: a raw frame developed and rendered as the sensor saw it
    /// (no gain, the plain curve) — the processed frame it would have been — else `frame` itself.
    mutating func meteringFrame(_ frame: Frame) throws(CaptureError) -> Frame {
        guard case .bayer16 = frame.buffer.format else { return frame }
        try develop(frame)
        let buffer: PixelBuffer
        do {
            buffer = try reuse(&metering, like: frame.buffer, format: Self.pictureFormat)
        } catch {
            throw .processingFailed(.buffer(error))
        }
        do {
            try pipeline.renderMeteringView(into: buffer)
        } catch {
            throw .processingFailed(.pipeline(error))
        }
        return Frame(buffer: buffer, presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber, metadata: frame.metadata)
    }

    /// The picture of `frame` with `gain` through `toneMapping`, or nil when no buffer is free
    /// (the frame is dropped, as when the device runs out).
    mutating func picture(_ frame: Frame, gain: RenderGain, toneMapping: ToneMapping) throws(CaptureError) -> Frame? {
        let isRaw: Bool
        if case .bayer16 = frame.buffer.format { isRaw = true } else { isRaw = false }
        if !isRaw && gain == .none { return frame }
        try develop(frame)
        let pool = try picturePool(format: isRaw ? Self.pictureFormat : frame.buffer.format, like: frame.buffer)
        // The pool's one error: every picture is still out with the outputs.
        guard let buffer = try? pool.makeBuffer() else { return nil }
        do {
            try pipeline.render(gain, toneMapping: toneMapping, into: buffer)
        } catch {
            throw .processingFailed(.pipeline(error))
        }
        var metadata = frame.metadata
        metadata.rawCalibration = nil
        return Frame(buffer: buffer, presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber, metadata: metadata)
    }

    /// Develops `frame` unless the pipeline holds it already (metered, now rendered).
    private mutating func develop(_ frame: Frame) throws(CaptureError) {
        let identity = (ObjectIdentifier(frame.buffer), frame.sequenceNumber)
        if let developed, developed == identity { return }
        developed = nil
        do {
            try pipeline.develop(frame)
        } catch {
            throw .processingFailed(.pipeline(error))
        }
        developed = identity
    }

    /// The pool of `format` pictures the size of `frame`, made when there is none of that kind.
    private mutating func picturePool(format: PixelFormat, like frame: PixelBuffer) throws(CaptureError) -> BufferPool {
        if let existing = pictures, existing.format == format, existing.width == frame.width, existing.height == frame.height {
            return existing
        }
        do {
            let pool = try BufferPool(format: format, width: frame.width, height: frame.height, capacity: Self.pictureCount)
            pictures = pool
            return pool
        } catch {
            throw .processingFailed(.buffer(error))
        }
    }

    /// `buffer`, or a new one when it is missing or another size.
    private func reuse(_ buffer: inout PixelBuffer?, like frame: PixelBuffer, format: PixelFormat) throws(PixelBufferError) -> PixelBuffer {
        if let existing = buffer, existing.width == frame.width, existing.height == frame.height { return existing }
        let made = try PixelBuffer(format: format, width: frame.width, height: frame.height)
        buffer = made
        return made
    }
}
