import CameraCodecs
import CameraCore
import Foundation

/// Raw mosaics of known content and the metadata to write them with, for the DNG tests.
enum DNGSamples {
    /// 12-bit samples on a black level of 256, with a colour matrix like a real sensor's (rows sum to 1).
    static let calibration = RawCalibration(blackLevel: 256, whiteLevel: 4095,
                                            colorMatrix: [1.62, -0.47, -0.15, -0.24, 1.45, -0.21, 0.04, -0.56, 1.52])
    /// Daylight-like gains: the sensor sees red and blue weaker than green.
    static let gains = WhiteBalanceGains(red: 1.9, green: 1, blue: 1.6)
    /// 2024-06-21 18:42:07.123 at UTC+02:00.
    static let captureDate = Date(timeIntervalSince1970: 1_718_988_127.123)

    static func metadata(calibration: RawCalibration = calibration, gains: WhiteBalanceGains = gains) -> DNGMetadata {
        DNGMetadata(exif: ExifMetadata(make: "CameraSun", model: "Simulated Camera", captureDate: captureDate,
                                       timeZone: TimeZone(secondsFromGMT: 2 * 3600)!, exposureTime: MediaTime(value: 1, timescale: 250),
                                       fNumber: 2.8, iso: 400, focalLength: 4.25, orientation: .degrees90),
                    calibration: calibration, whiteBalanceGains: gains)
    }

    /// A mosaic whose samples run through every 12-bit value (0…4095), so a reader that shifts,
    /// clips or swaps bytes changes some of them.
    static func allValues(width: Int = 256, height: Int = 192) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer[sample16: x, y: y] = UInt16((y * width + x) * 7 % 4096) }
        }
        return buffer
    }

    /// A grey card under `gains`: each raw channel is black + level × range / gain, so the balanced
    /// scene is neutral — a grey of `level` with a white band (0.75) across the top eighth that gives
    /// a developer's auto-brightness a white to find.
    static func greyCard(width: Int = 256, height: Int = 192, level: Double = 0.2, gains: WhiteBalanceGains = gains) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: width, height: height)
        let range = Double(calibration.whiteLevel - calibration.blackLevel)
        for y in 0..<height {
            for x in 0..<width {
                let gain = switch (x.isMultiple(of: 2), y.isMultiple(of: 2)) {
                case (true, true): gains.red
                case (false, false): gains.blue
                default: gains.green
                }
                let scene = y < height / 8 ? 0.75 : level
                buffer[sample16: x, y: y] = UInt16((Double(calibration.blackLevel) + scene * range / gain).rounded())
            }
        }
        return buffer
    }

    /// The words of a bayer16 buffer, row by row without padding.
    static func samples(_ buffer: PixelBuffer) -> [UInt16] {
        (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer[sample16: x, y: y] } }
    }

    /// `dng` written as `name` in `folder`.
    static func file(_ dng: Data, named name: String = "photo.dng", in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try dng.write(to: url)
        return url
    }
}
