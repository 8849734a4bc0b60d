import CameraCore
import CameraMetering

/// A frame as outputs receive it: the device's frame, its statistics (analysed once and shared by
/// every output), the 3A engine's state after it, and how the output's connection wants it shown.
///
/// The pixels are as the sensor delivered them. To display the frame, rotate it clockwise by
/// `rotation`, then flip it horizontally if `isMirrored` (the order `PreviewGeometry` uses).
public struct CapturedFrame: Sendable {
    public private(set) var frame: Frame
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
    /// Counts the session's streams: presentation times compare only within one stream.
    let streamIndex: Int
    /// The stream's flash, through which an output asks for a flash photo; nil when the device
    /// has no flash.
    let flash: StreamFlash?
    /// The stream's brackets, through which an output asks for a bracketed photo; nil when the
    /// device's frames are not raw.
    let bracket: StreamBracket?

    init(frame: Frame, statistics: FrameStatistics, threeA: ThreeAStatus, frameDuration: MediaTime,
         connection: CaptureConnection, streamIndex: Int, flash: StreamFlash?, bracket: StreamBracket?, raw: Frame?) {
        self.bracket = bracket
        self.raw = raw
        self.frame = frame
        self.statistics = statistics
        self.threeA = threeA
        self.frameDuration = frameDuration
        (rotation, isMirrored, stabilizationMode) = connection.snapshot
        self.streamIndex = streamIndex
        self.flash = flash
    }

    /// This frame with `picture` in place of its own: a photo made from it (a merged bracket).
    func replacingPicture(_ picture: Frame) -> CapturedFrame {
        var copy = self
        copy.frame = picture
        return copy
    }

    public var buffer: PixelBuffer { frame.buffer }
    public var sequenceNumber: UInt64 { frame.sequenceNumber }
    public var presentationTime: MediaTime { frame.presentationTime }
    public var metadata: FrameMetadata { frame.metadata }
}
