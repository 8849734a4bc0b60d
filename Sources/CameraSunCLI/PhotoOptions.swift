import CameraCapture
import CameraCodecs
import CameraCore
import CameraMetering
import CameraPhotos
import CameraSimulated
import CameraStills
import Foundation

/// The flags of `camerasun photo`, read and checked for usage errors (exit 2) before anything is
/// written; the ranges the camera sets (`--ev`, `--shutter`, `--gain`) are checked once it is open.
struct PhotoOptions {
    /// Photos one command takes: the free-space check covers the whole burst before the first shot.
    static let countRange = 1...1000
    static let defaultSize = PixelSize(width: 1920, height: 1080)
    /// The bytes per pixel assumed for a photo when checking free space before a burst, on the
    /// safe side of the noisiest built-in scene (night-street: 0.34 at quality 90, 1.04 at 100).
    /// The library checks each file's real size again when it writes it.
    static func estimatedBytesPerPixel(quality: Int) -> Double {
        0.6 + 0.09 * Double(max(quality - 90, 0))
    }

    let capture: CaptureFlags
    let count: Int
    let quality: Int
    let zeroShutterLag: Bool
    /// `--flash off|on|auto` (default off).
    let flash: PhotoSettings.FlashMode
    let json: Bool
    let libraryDirectory: URL
    /// `--gps`: where the photos are taken, into their EXIF.
    let location: GPSLocation?
    /// `--bracket -2,0,2`: EV offsets of a bracketed photo, merged into one; nil takes one frame.
    let bracket: [Double]?
    /// `--raw`: each photo a RAW + JPEG pair (a DNG of its raw frame beside the JPEG).
    let raw: Bool
    /// `--bracket-frames`: each frame of the bracket kept as a photo of its own too.
    let keepsBracketFrames: Bool
    private let bias: Double
    private let metering: MeteringMode
    private let shutter: MediaTime?
    private let gain: GainFlag?

    init(parsing arguments: ArgumentList) throws {
        var arguments = arguments
        json = arguments.flag("json")
        capture = try CaptureFlags(&arguments, size: Self.defaultSize, realtime: false)
        count = try arguments.integer("count", in: Self.countRange) ?? 1
        quality = try arguments.integer("quality", in: JPEGEncoder.qualityRange) ?? 90
        zeroShutterLag = arguments.toggle("zsl") ?? true
        flash = try arguments.option("flash", expected: "off, on or auto", PhotoSettings.FlashMode.init(rawValue:)) ?? .off
        libraryDirectory = try LibraryCommand.libraryDirectory(&arguments)
        location = try arguments.location()
        raw = arguments.flag("raw")
        bracket = try arguments.bracket()
        keepsBracketFrames = arguments.flag("bracket-frames")
        if keepsBracketFrames && bracket == nil {
            throw CLIError.usage("--bracket-frames keeps each frame of a bracket — give --bracket too, e.g. --bracket -2,0,2")
        }
        if bracket != nil && flash != .off {
            throw CLIError.usage("--bracket with --flash \(flash.rawValue) — a bracketed photo is taken without the flash")
        }
        let ev = try arguments.double("ev")
        bias = ev ?? 0
        metering = try arguments.option("metering", expected: "average, centre, spot, spot@x,y, matrix or sun",
                                        MeteringMode.init(parsing:)) ?? .sunAware
        shutter = try arguments.shutter()
        gain = try arguments.gain()
        if gain != nil && shutter == nil {
            throw CLIError.usage("--gain (or --iso) without --shutter — give --shutter too for a fixed exposure, "
                + "or neither to let auto-exposure choose both")
        }
        if ev != nil && shutter != nil {
            throw CLIError.usage("--ev biases auto-exposure, which --shutter turns off — give --ev or --shutter, not both")
        }
        if capture.settings.shadows != nil && shutter != nil {
            throw CLIError.usage("--shadows shapes auto-exposure's picture, which --shutter turns off — give --shadows or --shutter, not both")
        }
        try arguments.finish()
    }

    /// The device's settings: `--ev`, `--shutter` and `--gain` checked against `capabilities` (an
    /// error names the flag and its range); a fixed exposure when `--shutter` is given.
    func cameraSettings(within capabilities: DeviceCapabilities) throws(ValueOutOfRangeError) -> PhotoCamera.Settings {
        var settings = PhotoCamera.Settings(
            bias: try ValueOutOfRangeError.check(bias, in: capabilities.exposureBias, setting: "--ev", unit: "EV"),
            metering: metering)
        if let shutter {
            let duration = try ValueOutOfRangeError.check(shutter.seconds, in: capabilities.exposureDuration, setting: "--shutter", unit: "s")
            let gain = try gain?.analogueGain(on: capabilities) ?? capabilities.analogueGain.lowerBound
            settings.exposureMode = .custom(duration: duration, gain: gain)
        }
        return settings
    }

    /// Fresh settings for each request: JPEG at `--quality`, `--flash`, zero shutter lag unless
    /// `--no-zsl` (a photo the flash lights never is), a `--bracket` (and `--bracket-frames`), `--raw`.
    var photoSettings: @Sendable () -> PhotoSettings {
        { [quality, flash, zeroShutterLag, location, bracket, raw, keepsBracketFrames] in
            var settings = PhotoSettings(format: .jpeg(quality: quality), flashMode: flash, location: location,
                                         zeroShutterLag: zeroShutterLag, bracket: bracket, raw: raw)
            settings.keepsBracketFrames = keepsBracketFrames
            return settings
        }
    }
}
