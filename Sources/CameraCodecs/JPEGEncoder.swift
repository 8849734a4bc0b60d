import CameraCore
import CTurboJPEG

/// Encodes `PixelBuffer`s as baseline JPEG (4:2:0, or greyscale for gray8) through libjpeg-turbo:
/// photos, previews and thumbnails.
///
/// How each format reaches libjpeg-turbo:
/// - bgra8 and gray8 are read in place, row by row at the buffer's own stride: no copy.
/// - nv12 holds BT.709 Y'CbCr, but a JPEG holds BT.601 full-range Y'CbCr, so one pass converts it
///   into planar scratch that the encoder keeps between calls (`JFIFPlanes`): the one copy, in the
///   format libjpeg-turbo compresses without a colour conversion of its own.
/// - yuyv422 and bayer16 go through `PixelBuffer.rgb8()`: correct but slow, for tools and tests.
///
/// An encoder keeps its libjpeg-turbo handle, output buffer and scratch from call to call, so make
/// one per stream of work and reuse it. It is not `Sendable`: give each task its own, or keep one
/// inside an actor.
public final class JPEGEncoder {
    /// The qualities libjpeg-turbo accepts: 1 (smallest file) to 100 (best image).
    public static let qualityRange = 1...100

    private let handle: tjhandle
    /// libjpeg-turbo's output buffer, grown to the largest image seen (`tjAlloc`'d).
    private var output: UnsafeMutablePointer<UInt8>?
    private var outputCapacity = 0
    private let planes = JFIFPlanes()

    public init() throws(CodecError) {
        guard let handle = tjInitCompress() else {
            throw CodecError(.encodingFailed, "cannot start libjpeg-turbo's compressor: \(String(cString: tjGetErrorStr2(nil)))"
                + " — free memory and try again")
        }
        self.handle = handle
    }

    deinit {
        tjFree(output)
        tjDestroy(handle)
    }

    /// The JPEG file contents for `buffer` at `quality` (1…100).
    public func encode(_ buffer: PixelBuffer, quality: Int) throws(CodecError) -> [UInt8] {
        try compress(buffer, quality: quality) { jpeg in Array(jpeg) }
    }

    /// The benchmark peer for `camerasun bench photo`: the same bgra8 or gray8 buffer, quality and
    /// subsampling through one bare `tjCompress2` call into a buffer libjpeg-turbo allocates, as a
    /// C program would write it. Only this encoder's handle is shared, so the two measure the same
    /// work apart from our own code.
    public func bareTurboJPEGEncode(_ buffer: PixelBuffer, quality: Int) throws(CodecError) -> [UInt8] {
        try Self.validate(quality)
        guard buffer.format == .bgra8 || buffer.format == .gray8 else {
            throw CodecError(.unsupported, "the bare libjpeg-turbo peer takes bgra8 or gray8 buffers, not \(buffer.format)"
                + " — benchmark with a bgra8 frame")
        }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(jpeg) }
        let status = tjCompress2(handle, buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self),
                                 Int32(buffer.width), Int32(buffer.planes[0].bytesPerRow), Int32(buffer.height),
                                 Self.packedPixelFormat(buffer.format), &jpeg, &size, Self.subsampling(buffer.format),
                                 Int32(quality), 0)
        guard status == 0, let jpeg else { throw failure(buffer) }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }

    /// Compresses `buffer` into the reusable output buffer and calls `body` with the JPEG bytes,
    /// which are valid only until `body` returns.
    func compress<R>(_ buffer: PixelBuffer, quality: Int,
                     _ body: (UnsafeBufferPointer<UInt8>) throws(CodecError) -> R) throws(CodecError) -> R {
        try Self.validate(quality)
        let subsampling = Self.subsampling(buffer.format)
        reserveOutput(width: buffer.width, height: buffer.height, subsampling: subsampling)
        var jpeg = output
        var size = UInt(outputCapacity)
        let width = Int32(buffer.width), height = Int32(buffer.height), quality = Int32(quality)
        let status: Int32
        switch buffer.format {
        case .bgra8, .gray8:
            status = tjCompress2(handle, buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self), width,
                                 Int32(buffer.planes[0].bytesPerRow), height, Self.packedPixelFormat(buffer.format),
                                 &jpeg, &size, subsampling, quality, TJFLAG_NOREALLOC)
        case .nv12(let range):
            planes.load(buffer, range: range)
            status = planes.withPlanes { pointers, strides in
                tjCompressFromYUVPlanes(handle, pointers, width, strides, height, subsampling, &jpeg, &size,
                                        quality, TJFLAG_NOREALLOC)
            }
        case .yuyv422, .bayer16:
            let rgb = buffer.rgb8()
            status = tjCompress2(handle, rgb, width, width * 3, height, Int32(TJPF_RGB.rawValue), &jpeg, &size,
                                 subsampling, quality, TJFLAG_NOREALLOC)
        }
        guard status == 0, let jpeg else { throw failure(buffer) }
        return try body(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }

    /// Throws unless `quality` is one libjpeg-turbo accepts.
    static func validate(_ quality: Int) throws(CodecError) {
        guard qualityRange.contains(quality) else {
            throw .outOfRange("JPEG quality", Double(quality), Double(qualityRange.lowerBound)...Double(qualityRange.upperBound))
        }
    }

    /// libjpeg-turbo's pixel format for a bgra8 or gray8 buffer, which it reads in place.
    private static func packedPixelFormat(_ format: PixelFormat) -> Int32 {
        Int32((format == .gray8 ? TJPF_GRAY : TJPF_BGRA).rawValue)
    }

    /// Greyscale for gray8, else 4:2:0 chroma, as cameras write.
    private static func subsampling(_ format: PixelFormat) -> Int32 {
        Int32((format == .gray8 ? TJSAMP_GRAY : TJSAMP_420).rawValue)
    }

    /// Makes the output buffer large enough for any JPEG of this size, so libjpeg-turbo never
    /// reallocates it (TJFLAG_NOREALLOC).
    private func reserveOutput(width: Int, height: Int, subsampling: Int32) {
        let needed = Int(tjBufSize(Int32(width), Int32(height), subsampling))
        guard needed > outputCapacity else { return }
        tjFree(output)
        output = tjAlloc(Int32(needed))
        outputCapacity = output == nil ? 0 : needed
    }

    private func failure(_ buffer: PixelBuffer) -> CodecError {
        CodecError(.encodingFailed, "libjpeg-turbo cannot encode a \(buffer.width)×\(buffer.height) \(buffer.format)"
            + " buffer: \(String(cString: tjGetErrorStr2(handle))) — free memory and try again")
    }
}

@available(*, unavailable, message: "a JPEGEncoder reuses its buffers; give each task its own")
extension JPEGEncoder: Sendable {}
