import CameraCore
import CameraMetering

/// A downscaled frame for viewers (viewfinder pages, MJPEG clients): a small bgra8 image plus
/// what the viewfinder draws next to it. It holds no reference to the full-size frame, so a
/// viewer never keeps a device buffer from the camera.
public struct PreviewFrame: Sendable {
    /// bgra8, at most the output's `maximumSize`, with the source's aspect ratio. Shared by every
    /// viewer: read it, never write it.
    public let image: PixelBuffer
    public let sequenceNumber: UInt64
    public let presentationTime: MediaTime
    /// The sensor settings the frame was made with (exposure time, gain, zoom, …).
    public let metadata: FrameMetadata
    /// The analysis the 3A engine metered: of the sensor's frame.
    public let statistics: FrameStatistics
    /// The analysis of `image`: the picture as the viewer sees it, after the render gain.
    public let pictureStatistics: FrameStatistics
    public let threeA: ThreeAStatus
    /// Rotate the image clockwise by this, then mirror it if `isMirrored`, to show it upright.
    public let rotation: Rotation
    public let isMirrored: Bool

    init(image: PixelBuffer, pictureStatistics: FrameStatistics, source: CapturedFrame) {
        self.image = image
        self.pictureStatistics = pictureStatistics
        sequenceNumber = source.sequenceNumber
        presentationTime = source.presentationTime
        metadata = source.metadata
        statistics = source.statistics
        threeA = source.threeA
        rotation = source.rotation
        isMirrored = source.isMirrored
    }
}
