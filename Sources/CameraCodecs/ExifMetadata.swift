import CameraCore
import Foundation

/// What a photo's EXIF block says about it: the camera, the moment, the exposure that made it,
/// where it was taken and who took it. `ExifWriter` turns it into a JPEG APP1 segment; the pixel
/// dimensions come from the encoded image itself.
///
/// Values are kept as the camera reports them (seconds, f-number, EV) and converted to EXIF's
/// rationals when written, exactly where the value allows (1/250 s stays 1/250, −2/3 EV stays −2/3).
public struct ExifMetadata: Sendable, Hashable {
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
    /// The ISO speed including any digital gain (ISOSpeedRatings; EXIF holds at most 65535, so
    /// higher speeds are written as 65535).
    public var iso: Int
    /// The exposure compensation in EV (ExposureBiasValue).
    public var exposureBias: Double
    public var exposureProgram: ExposureProgram
    public var exposureMode: ExposureMode
    public var meteringMode: MeteringMode
    public var flash: Flash
    public var whiteBalance: WhiteBalance
    /// The lens focal length in millimetres (FocalLength).
    public var focalLength: Double
    /// The digital zoom factor, ≥ 1 (DigitalZoomRatio).
    public var digitalZoomRatio: Double
    /// The scene brightness in APEX units, Bv = log₂(B / (N·K)) (BrightnessValue); nil omits it.
    public var brightnessValue: Double?
    /// How far the image must be turned clockwise to stand upright (Orientation 1, 6, 3, 8).
    public var orientation: Rotation
    /// Where the photo was taken (the GPS IFD); nil writes no location.
    public var location: GPSLocation?
    public var artist: String?
    public var userComment: String?
    /// A picture made of several exposures, their times (EXIF 2.32's CompositeImage 3, "composite
    /// captured when shooting", and SourceImageNumberOfCompositeImage); nil for a single exposure.
    public var compositeSources: [MediaTime]?

    public init(make: String, model: String, software: String = "CameraSun", captureDate: Date,
                timeZone: TimeZone = .current, exposureTime: MediaTime, fNumber: Double, iso: Int,
                exposureBias: Double = 0, exposureProgram: ExposureProgram = .normal, exposureMode: ExposureMode = .auto,
                meteringMode: MeteringMode = .centerWeighted, flash: Flash = .off, whiteBalance: WhiteBalance = .auto,
                focalLength: Double, digitalZoomRatio: Double = 1, brightnessValue: Double? = nil,
                orientation: Rotation = .degrees0, location: GPSLocation? = nil, artist: String? = nil,
                userComment: String? = nil, compositeSources: [MediaTime]? = nil) {
        self.compositeSources = compositeSources
        self.make = make
        self.model = model
        self.software = software
        self.captureDate = captureDate
        self.timeZone = timeZone
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.exposureBias = exposureBias
        self.exposureProgram = exposureProgram
        self.exposureMode = exposureMode
        self.meteringMode = meteringMode
        self.flash = flash
        self.whiteBalance = whiteBalance
        self.focalLength = focalLength
        self.digitalZoomRatio = digitalZoomRatio
        self.brightnessValue = brightnessValue
        self.orientation = orientation
        self.location = location
        self.artist = artist
        self.userComment = userComment
    }

    /// How the exposure was chosen (EXIF ExposureProgram; the raw value is the EXIF code).
    public enum ExposureProgram: UInt16, Sendable, Hashable, CaseIterable {
        case manual = 1, normal = 2, aperturePriority = 3, shutterPriority = 4
    }

    /// Automatic, manual or bracketed exposure (EXIF ExposureMode).
    public enum ExposureMode: UInt16, Sendable, Hashable, CaseIterable {
        case auto = 0, manual = 1, bracket = 2
    }

    /// The light-metering pattern (EXIF MeteringMode). Matrix metering is `pattern`; CameraSun's
    /// sun-aware metering has no EXIF code and is written as `other`.
    public enum MeteringMode: UInt16, Sendable, Hashable, CaseIterable {
        case average = 1, centerWeighted = 2, spot = 3, pattern = 5, other = 255
    }

    /// Automatic or manual white balance (EXIF WhiteBalance).
    public enum WhiteBalance: UInt16, Sendable, Hashable, CaseIterable {
        case auto = 0, manual = 1
    }

    /// The flash setting and whether it fired (EXIF Flash).
    public enum Flash: Sendable, Hashable {
        /// The camera has no flash.
        case unavailable
        case off
        case on(fired: Bool)
        case auto(fired: Bool)

        /// The EXIF bit field: bit 0 fired, bits 3–4 the mode (1 on, 2 off, 3 auto), bit 5 no flash.
        var exifValue: UInt16 {
            switch self {
            case .unavailable: 0x20
            case .off: 0x10
            case .on(let fired): 0x08 | (fired ? 1 : 0)
            case .auto(let fired): 0x18 | (fired ? 1 : 0)
            }
        }
    }
}
