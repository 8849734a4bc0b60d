import CameraCore
import Foundation

/// What a DNG says about its raw mosaic besides the samples: the shot, as a JPEG of it says it
/// (`ExifMetadata`: camera, time, exposure, orientation — one value for both files of a RAW + JPEG
/// pair), and how the samples become colour. `DNGWriter` writes it.
public struct DNGMetadata: Sendable, Hashable {
    /// The shot: Make and Model (together UniqueCameraModel, so neither may be empty), Software,
    /// DateTimeOriginal, ExposureTime, FNumber, ISOSpeedRatings, FocalLength and Orientation are
    /// written from it; the DNG takes no GPS, artist or comment.
    public var exif: ExifMetadata
    /// The black and white levels and the camera → Rec. 709 matrix (BlackLevel, WhiteLevel, ColorMatrix1).
    public var calibration: RawCalibration
    /// The gains that white-balance this frame (AsShotNeutral is their reciprocal).
    public var whiteBalanceGains: WhiteBalanceGains

    public init(exif: ExifMetadata, calibration: RawCalibration, whiteBalanceGains: WhiteBalanceGains) {
        self.exif = exif
        self.calibration = calibration
        self.whiteBalanceGains = whiteBalanceGains
    }
}
