import CameraCapture
import CameraStills
import Foundation
import PhotoLibrary

/// What the photo library records with a photo besides its file, the same for the viewfinder's
/// shutter and `camerasun photo`: the exposure as the photo's EXIF states it (ISO of analogue ×
/// digital gain, the frame's EV bias, the `--metering` name of its metering mode) and its frame's
/// metering statistics as a JSON object.
public struct PhotoRecord: Sendable {
    public let exposure: Asset.Exposure
    /// `{"aeState","brightness","clippedFraction","evError","flash","flashPower","linearMean","sunFraction"}`,
    /// keys sorted; `flashPower` only when the flash fired.
    public let meteringStatistics: String

    public init(_ photo: CapturedPhoto) {
        let metadata = photo.metadata
        exposure = Asset.Exposure(exposureTime: metadata.exposureDuration.seconds, iso: Double(metadata.isoSpeedRating),
                                  evBias: metadata.exposureBias, meteringMode: photo.threeA.meteringMode.commandLineName)
        meteringStatistics = MeteringRecord(photo).json
    }
}

/// The metering statistics stored with a photo: its frame's analysis and the exposure state.
private struct MeteringRecord: Encodable {
    let brightness: Double
    let linearMean: Double
    let clippedFraction: Double
    let sunFraction: Double
    /// The metered exposure error in EV (positive: over-exposed).
    let evError: Double
    /// searching, converged or locked.
    let aeState: String
    /// The flash mode asked for (off, on, auto) and the power (0…1) it fired at, nil when it did not.
    let flash: String
    let flashPower: Double?

    init(_ photo: CapturedPhoto) {
        brightness = photo.statistics.brightness
        linearMean = photo.statistics.linearMean
        clippedFraction = photo.statistics.clippedFraction
        sunFraction = photo.statistics.highlights.sunFraction
        evError = photo.threeA.exposureError
        aeState = photo.threeA.exposureState.rawValue
        flash = photo.flash.mode.rawValue
        flashPower = photo.flash.power
    }

    /// The record as a JSON object with sorted keys.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // An analysed frame's statistics are finite; should one not be, the photo is still stored,
        // with null statistics.
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
