import CameraCore
import CTurboJPEG

/// Decodes JPEG files into bgra8 `PixelBuffer`s through libjpeg-turbo: for checking what the
/// encoder wrote and for JPEG sources (MJPEG cameras, stills). bgra8 because libjpeg-turbo's own
/// colour conversion is the fastest way out of a JPEG's BT.601 Y'CbCr into a format the pipeline
/// takes.
///
/// A decoder keeps its libjpeg-turbo handle between calls; like `JPEGEncoder` it is not `Sendable`.
public final class JPEGDecoder {
    private let handle: tjhandle

    public init() throws(CodecError) {
        guard let handle = tjInitDecompress() else {
            throw CodecError(.unreadable, "cannot start libjpeg-turbo's decompressor: \(String(cString: tjGetErrorStr2(nil)))"
                + " — free memory and try again")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// The image in `jpeg` as bgra8 (alpha 255).
    public func decode(_ jpeg: [UInt8]) throws(CodecError) -> PixelBuffer {
        try jpeg.withUnsafeBytes { jpeg in
            Result { () throws(CodecError) -> PixelBuffer in
                let size = try imageSize(jpeg)
                let buffer: PixelBuffer
                do {
                    buffer = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
                } catch {
                    throw CodecError(.tooLarge, "cannot decode the JPEG: \(error)")
                }
                try decode(jpeg, into: buffer)
                return buffer
            }
        }.get()
    }

    /// Decodes the image in `jpeg` into `buffer`, which must be bgra8 and the image's size: an
    /// MJPEG camera's frame into a pooled buffer, with no allocation. A truncated or corrupt
    /// image throws `.malformed` (libjpeg-turbo's warnings count), leaving `buffer` unspecified.
    public func decode(_ jpeg: UnsafeRawBufferPointer, into buffer: PixelBuffer) throws(CodecError) {
        let size = try imageSize(jpeg)
        guard buffer.format == .bgra8, buffer.width == size.width, buffer.height == size.height else {
            throw CodecError(.unsupported, "a \(size.width)×\(size.height) JPEG cannot be decoded into a \(buffer.width)×\(buffer.height)"
                + " \(buffer.format) buffer — give it a bgra8 buffer of the image's size")
        }
        guard tjDecompress2(handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                            buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self), Int32(size.width),
                            Int32(buffer.planes[0].bytesPerRow), Int32(size.height), Int32(TJPF_BGRA.rawValue), 0) == 0 else {
            throw failure(jpeg.count)
        }
    }

    /// The width and height the JPEG's header gives.
    private func imageSize(_ jpeg: UnsafeRawBufferPointer) throws(CodecError) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                  &width, &height, &subsampling, &colourspace) == 0, width > 0, height > 0 else {
            throw failure(jpeg.count)
        }
        return PixelSize(width: Int(width), height: Int(height))
    }

    private func failure(_ byteCount: Int) -> CodecError {
        CodecError(.malformed, "libjpeg-turbo cannot decode the \(byteCount)-byte JPEG: \(String(cString: tjGetErrorStr2(handle)))"
            + " — check that the file is a complete JPEG")
    }
}

@available(*, unavailable, message: "a JPEGDecoder reuses its handle; give each task its own")
extension JPEGDecoder: Sendable {}
