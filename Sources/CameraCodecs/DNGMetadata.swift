import CameraCore
import Foundation

/// What a DNG says about its raw mosaic besides the samples: the camera, the exposure, and how the
/// samples become colour. `DNGWriter` writes it; the frame's `FrameMetadata` has most of it
/// (`rawCalibration`, `whiteBalanceGains`, `exposureDuration`, `iso`, `fNumber`).
public struct DNGMetadata: Sendable, Hashable {
    /// The camera's maker and model (Make, Model; together UniqueCameraModel, which must not be empty).
    public var make: String
    public var model: String
    public var software: String
    /// The moment of capture (DateTimeOriginal, to the millisecond with SubSecTimeOriginal).
    public var captureDate: Date
    /// The time zone the capture time is written in (local time plus OffsetTimeOriginal).
    public var timeZone: TimeZone
    /// The exposure duration (ExposureTime); must be positive.
    public var exposureTime: MediaTime
    /// The lens aperture (FNumber).
    public var fNumber: Double
    /// The ISO speed (ISOSpeedRatings; speeds above 65535 are written as 65535).
    public var iso: Int
    /// The lens focal length in millimetres (FocalLength).
    public var focalLength: Double
    /// How far the image must be turned clockwise to stand upright (Orientation 1, 6, 3, 8).
    public var orientation: Rotation
    /// The black and white levels and the camera → Rec. 709 matrix (BlackLevel, WhiteLevel, ColorMatrix1).
    public var calibration: RawCalibration
    /// The gains that white-balance this frame (AsShotNeutral is their reciprocal).
    public var whiteBalanceGains: WhiteBalanceGains

    public init(make: String, model: String, software: String = "CameraSun", captureDate: Date, timeZone: TimeZone = .current,
                exposureTime: MediaTime, fNumber: Double, iso: Int, focalLength: Double, orientation: Rotation = .degrees0,
                calibration: RawCalibration, whiteBalanceGains: WhiteBalanceGains) {
        self.make = make
        self.model = model
        self.software = software
        self.captureDate = captureDate
        self.timeZone = timeZone
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.orientation = orientation
        self.calibration = calibration
        self.whiteBalanceGains = whiteBalanceGains
    }
}
