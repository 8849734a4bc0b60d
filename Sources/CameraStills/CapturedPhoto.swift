import CameraCapture
import CameraCore
import CameraMetering
import Foundation

/// A finished photo: the encoded file and everything known about the frame it came from.
public struct CapturedPhoto: Sendable {
    public let settings: PhotoSettings
    /// The encoded file (JPEG with EXIF and a thumbnail).
    public let data: [UInt8]
    /// The DNG of the raw frame the JPEG was developed from, when the settings asked for `raw`.
    public let rawData: Data?
    /// The encoded image's size (after `maximumDimensions`).
    public let size: PixelSize
    /// The frame's presentation time and sequence number in the session's stream.
    public let presentationTime: MediaTime
    public let sequenceNumber: UInt64
    /// The sequence number of the frame that was current when the request was made (nil when
    /// none had arrived): equal to `sequenceNumber` for a zero-shutter-lag photo, smaller when
    /// the photo waited for a later frame (as a flash photo always does).
    public let sequenceAtRequest: UInt64?
    /// The settings the sensor used for the frame.
    public let metadata: FrameMetadata
    /// The frame's analysis, as the viewfinder showed it.
    public let statistics: FrameStatistics
    public let threeA: ThreeAStatus
    /// Whether the flash fired for the photo, and at what power.
    public let flash: PhotoFlash
    /// Wall-clock time of the shutter moment (EXIF DateTimeOriginal).
    public let captureDate: Date
    /// Each frame of a bracket as a photo of its own, in the order of the offsets, when the
    /// settings asked to keep them.
    public internal(set) var bracketFrames: [CapturedPhoto] = []
}
