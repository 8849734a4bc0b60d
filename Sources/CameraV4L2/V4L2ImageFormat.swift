import CameraCore

/// The single-planar image format VIDIOC_S_FMT sets and answers (`struct v4l2_pix_format`): the
/// driver may adjust what it is asked for, and its answer is what it delivers.
public struct V4L2ImageFormat: Sendable, Hashable {
    public var size: PixelSize
    public var code: FourCC
    /// Bytes from one row to the next (of the Y plane for NV12); 0 in a request lets the driver choose.
    public var bytesPerLine: Int
    /// Bytes of one whole frame; 0 in a request.
    public var imageByteCount: Int

    public init(size: PixelSize, code: FourCC, bytesPerLine: Int = 0, imageByteCount: Int = 0) {
        self.size = size
        self.code = code
        self.bytesPerLine = bytesPerLine
        self.imageByteCount = imageByteCount
    }
}
