import CameraCore
import CTurboJPEG

/// Decodes JPEG files into bgra8 `PixelBuffer`s through libjpeg-turbo: for checking what the
/// encoder wrote and for JPEG sources (MJPEG cameras, stills).
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
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
              width > 0, height > 0 else {
            throw failure(jpeg)
        }
        let buffer: PixelBuffer
        do {
            buffer = try PixelBuffer(format: .bgra8, width: Int(width), height: Int(height))
        } catch {
            throw CodecError(.tooLarge, "cannot decode the JPEG: \(error)")
        }
        guard tjDecompress2(handle, jpeg, UInt(jpeg.count), buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self),
                            width, Int32(buffer.planes[0].bytesPerRow), height, Int32(TJPF_BGRA.rawValue), 0) == 0 else {
            throw failure(jpeg)
        }
        return buffer
    }

    private func failure(_ jpeg: [UInt8]) -> CodecError {
        CodecError(.malformed, "libjpeg-turbo cannot decode the \(jpeg.count)-byte JPEG: \(String(cString: tjGetErrorStr2(handle)))"
            + " — check that the file is a complete JPEG")
    }
}

@available(*, unavailable, message: "a JPEGDecoder reuses its handle; give each task its own")
extension JPEGDecoder: Sendable {}
