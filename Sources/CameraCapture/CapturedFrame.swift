import CameraCore
import CameraMetering

/// A frame as outputs receive it: the device's frame, its statistics (analysed once and shared by
/// every output), the 3A engine's state after it, and how the output's connection wants it shown.
///
/// The pixels are as the sensor delivered them. To display the frame, rotate it clockwise by
/// `rotation`, then flip it horizontally if `isMirrored` (the order `PreviewGeometry` uses).
public final class CapturedFrame: Sendable {
    public let frame: Frame
    /// The device's raw (bayer16) frame the picture was developed from, for an output that
    /// `receivesRawFrames`; nil otherwise, and for a processed stream.
    public let raw: Frame?
    public let statistics: FrameStatistics
    public let threeA: ThreeAStatus
    /// The nominal time between frames at the device's frame rate when this one was captured.
    public let frameDuration: MediaTime
    public let rotation: Rotation
    public let isMirrored: Bool
    public let stabilizationMode: VideoStabilizationMode
    /// Whether the picture was developed from a raw (bayer16) frame, which `raw` carries when asked for.
    public let sourceIsRaw: Bool
    /// Counts the session's streams: presentation times compare only within one stream.
    let streamIndex: Int

    init(frame: Frame, statistics: FrameStatistics, threeA: ThreeAStatus, frameDuration: MediaTime,
         shown: CaptureConnection.Snapshot, streamIndex: Int, sourceIsRaw: Bool, raw: Frame?) {
        self.sourceIsRaw = sourceIsRaw
        self.raw = raw
        self.frame = frame
        self.statistics = statistics
        self.threeA = threeA
        self.frameDuration = frameDuration
        (rotation, isMirrored, stabilizationMode) = (shown.rotation, shown.isMirrored, shown.stabilizationMode)
        self.streamIndex = streamIndex
    }

    /// This frame with `picture` in place of its own: a photo made from it (a merged bracket).
    package func replacingPicture(_ picture: Frame) -> CapturedFrame {
        CapturedFrame(self, picture: picture)
    }

    private init(_ other: CapturedFrame, picture: Frame) {
        frame = picture
        (raw, statistics, threeA, frameDuration) = (other.raw, other.statistics, other.threeA, other.frameDuration)
        (rotation, isMirrored, stabilizationMode) = (other.rotation, other.isMirrored, other.stabilizationMode)
        (sourceIsRaw, streamIndex) = (other.sourceIsRaw, other.streamIndex)
    }

    public var buffer: PixelBuffer { frame.buffer }
    public var sequenceNumber: UInt64 { frame.sequenceNumber }
    public var presentationTime: MediaTime { frame.presentationTime }
    public var metadata: FrameMetadata { frame.metadata }
}
