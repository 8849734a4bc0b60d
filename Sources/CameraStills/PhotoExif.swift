import CameraCapture
import CameraCodecs
import CameraCore
import CameraExposure
import Foundation

/// The EXIF a photo carries, from its frame's metadata, the 3A state, the flash and the request.
enum PhotoExif {
    static func metadata(for frame: CapturedFrame, flash: PhotoFlash, settings: PhotoSettings, make: String, model: String,
                         focalLength: Double, captureDate: Date) -> ExifMetadata {
        let metadata = frame.metadata
        let status = frame.threeA
        let manual = if case .custom = status.exposureMode { true } else { false }
        return ExifMetadata(
            make: make, model: model, captureDate: captureDate, exposureTime: metadata.exposureDuration,
            fNumber: metadata.fNumber, iso: metadata.isoSpeedRating,
            exposureBias: metadata.exposureBias,
            exposureProgram: manual ? .manual : .normal, exposureMode: manual ? .manual : .auto,
            meteringMode: exifMeteringMode(status), flash: flash.exif,
            whiteBalance: status.whiteBalanceMode == .auto || status.whiteBalanceMode == .locked ? .auto : .manual,
            focalLength: focalLength, digitalZoomRatio: metadata.zoomFactor,
            brightnessValue: brightnessValue(metadata, linearMean: frame.statistics.linearMean),
            orientation: frame.rotation, location: settings.location, artist: settings.artist, userComment: settings.comment)
    }

    /// EXIF's metering codes: a tap point is a spot; sun-aware metering has no code of its own (255).
    static func exifMeteringMode(_ status: ThreeAStatus) -> ExifMetadata.MeteringMode {
        if status.exposurePoint != nil { return .spot }
        return switch status.meteringMode {
        case .average: .average
        case .centerWeighted: .centerWeighted
        case .spot: .spot
        case .matrix: .pattern
        case .sunAware: .other
        }
    }

    /// APEX brightness Bv = Av + Tv − Sv of the exposure, corrected by how far the frame's mean
    /// sits from mid-grey.
    static func brightnessValue(_ metadata: FrameMetadata, linearMean: Double) -> Double {
        let av = log2(metadata.fNumber * metadata.fNumber)
        let tv = -log2(metadata.exposureDuration.seconds)
        let sv = log2(metadata.iso * metadata.digitalGain / 3.125)
        return av + tv - sv + log2(max(linearMean, 1e-6) / 0.18)
    }
}

extension FrameMetadata {
    /// The ISO speed of the whole gain, analogue × digital, rounded as EXIF ISOSpeedRatings records
    /// it: what a photo's file and its library entry say it was taken at.
    public var isoSpeedRating: Int { Int((iso * digitalGain).rounded()) }
}
