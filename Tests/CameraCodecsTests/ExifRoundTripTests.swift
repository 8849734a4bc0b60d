import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// EXIF written by `JPEGEncoder.encode(_:quality:exif:)`, read back by exiftool.
@Suite struct ExifRoundTripTests {
    let encoder: JPEGEncoder

    init() throws {
        encoder = try JPEGEncoder()
    }

    /// 2024-06-21 18:42:07.123 at UTC+02:00.
    static let captureDate = Date(timeIntervalSince1970: 1_718_988_127.123)
    static let centralEurope = TimeZone(secondsFromGMT: 2 * 3600)!

    static let sunset = ExifMetadata(
        make: "CameraSun", model: "Simulated Camera", software: "CameraSun 0.1", captureDate: captureDate,
        timeZone: centralEurope, exposureTime: MediaTime(value: 4_000_000, timescale: 1_000_000_000), fNumber: 1.8,
        iso: 400, exposureBias: -2.0 / 3, exposureProgram: .normal, exposureMode: .auto, meteringMode: .other,
        flash: .auto(fired: false), whiteBalance: .auto, focalLength: 4.25, digitalZoomRatio: 1.5, brightnessValue: 5.25,
        orientation: .degrees90, location: GPSLocation(latitude: 48.8583, longitude: 2.2945, altitude: 35.5),
        artist: "Ada Lovelace", userComment: "backlit portrait at sunset")

    func read(_ metadata: ExifMetadata, format: PixelFormat = .bgra8, width: Int = 320, height: Int = 240) async throws -> [String: Any] {
        try await ExifTool.read(encoder.encode(Frames.gradient(format, width: width, height: height), quality: 90, exif: metadata))
    }

    @Test("exiftool reads back exactly the values written")
    func everyValue() async throws {
        let tags = try await read(Self.sunset)
        #expect(tags["Make"] as? String == "CameraSun")
        #expect(tags["Model"] as? String == "Simulated Camera")
        #expect(tags["Software"] as? String == "CameraSun 0.1")
        #expect(tags["Artist"] as? String == "Ada Lovelace")
        #expect(tags["UserComment"] as? String == "backlit portrait at sunset")
        #expect(tags["DateTimeOriginal"] as? String == "2024:06:21 18:42:07")
        #expect(tags["SubSecTimeOriginal"] as? Int == 123)
        #expect(tags["OffsetTimeOriginal"] as? String == "+02:00")
        #expect(tags["SubSecDateTimeOriginal"] as? String == "2024:06:21 18:42:07.123+02:00")
        #expect(tags["ExposureTime"] as? Double == 0.004)
        #expect(tags["FNumber"] as? Double == 1.8)
        #expect(tags["ISO"] as? Int == 400)
        #expect(Self.close(tags["ExposureCompensation"], -2.0 / 3, within: 1e-10), "exiftool prints 10 digits")
        #expect(tags["ExposureProgram"] as? Int == 2)
        #expect(tags["ExposureMode"] as? Int == 0)
        #expect(tags["MeteringMode"] as? Int == 255)
        #expect(tags["Flash"] as? Int == 0x18)
        #expect(tags["WhiteBalance"] as? Int == 0)
        #expect(tags["FocalLength"] as? Double == 4.25)
        #expect(tags["DigitalZoomRatio"] as? Double == 1.5)
        #expect(tags["BrightnessValue"] as? Double == 5.25)
        #expect(tags["Orientation"] as? Int == 6)
        #expect(tags["ExifImageWidth"] as? Int == 320)
        #expect(tags["ExifImageHeight"] as? Int == 240)
        #expect(tags["ImageWidth"] as? Int == 320 && tags["ImageHeight"] as? Int == 240)
        #expect(tags["GPSLatitudeRef"] as? String == "N")
        #expect(tags["GPSLongitudeRef"] as? String == "E")
        #expect(Self.close(tags["GPSLatitude"], 48.8583, within: 1e-9))
        #expect(Self.close(tags["GPSLongitude"], 2.2945, within: 1e-9))
        #expect(tags["GPSAltitudeRef"] as? Int == 0)
        #expect(tags["GPSAltitude"] as? Double == 35.5)
        #expect((tags["ThumbnailLength"] as? Int ?? 0) > 0)
    }

    @Test("south, west and below sea level keep their signs through the references")
    func southWestBelowSeaLevel() async throws {
        var metadata = Self.sunset
        metadata.location = GPSLocation(latitude: -33.8568, longitude: -70.6693, altitude: -12.25)
        let tags = try await read(metadata)
        #expect(tags["GPSLatitudeRef"] as? String == "S")
        #expect(tags["GPSLongitudeRef"] as? String == "W")
        #expect(Self.close(tags["GPSLatitude"], -33.8568, within: 1e-9))
        #expect(Self.close(tags["GPSLongitude"], -70.6693, within: 1e-9))
        #expect(tags["GPSAltitudeRef"] as? Int == 1)
        #expect(tags["GPSAltitude"] as? Double == -12.25)
    }

    @Test("without location, artist, comment or brightness none of those tags is written")
    func optionalTagsOmitted() async throws {
        var metadata = Self.sunset
        (metadata.location, metadata.artist, metadata.userComment, metadata.brightnessValue) = (nil, nil, nil, nil)
        let tags = try await read(metadata)
        for tag in ["GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSVersionID", "Artist", "UserComment", "BrightnessValue"] {
            #expect(tags[tag] == nil, "\(tag)")
        }
        #expect(tags["Make"] as? String == "CameraSun")
    }

    @Test("rotation clockwise becomes EXIF Orientation 1, 6, 3, 8",
          arguments: [(Rotation.degrees0, 1), (.degrees90, 6), (.degrees180, 3), (.degrees270, 8)])
    func orientation(rotation: Rotation, code: Int) async throws {
        var metadata = Self.sunset
        metadata.orientation = rotation
        #expect(try await read(metadata, width: 32, height: 16)["Orientation"] as? Int == code)
    }

    @Test("metering modes are EXIF's codes; sun-aware metering is written as 255 (other)",
          arguments: [(ExifMetadata.MeteringMode.average, 1), (.centerWeighted, 2), (.spot, 3), (.pattern, 5), (.other, 255)])
    func meteringMode(mode: ExifMetadata.MeteringMode, code: Int) async throws {
        var metadata = Self.sunset
        metadata.meteringMode = mode
        #expect(try await read(metadata, width: 32, height: 16)["MeteringMode"] as? Int == code)
    }

    @Test("flash states become EXIF's Flash bit field",
          arguments: [(ExifMetadata.Flash.unavailable, 0x20), (.off, 0x10), (.on(fired: true), 0x09), (.auto(fired: true), 0x19)])
    func flash(flash: ExifMetadata.Flash, code: Int) async throws {
        var metadata = Self.sunset
        metadata.flash = flash
        #expect(try await read(metadata, width: 32, height: 16)["Flash"] as? Int == code)
    }

    @Test("an nv12 photo carries its dimensions, a thumbnail and a non-ASCII comment")
    func nv12Photo() async throws {
        var metadata = Self.sunset
        metadata.userComment = "Sonnenuntergang – 日没"
        let tags = try await read(metadata, format: .nv12(.video), width: 640, height: 360)
        #expect(tags["ExifImageWidth"] as? Int == 640 && tags["ExifImageHeight"] as? Int == 360)
        #expect(tags["UserComment"] as? String == "Sonnenuntergang – 日没")
        #expect((tags["ThumbnailLength"] as? Int ?? 0) > 0)
    }

    static func close(_ value: Any?, _ expected: Double, within tolerance: Double) -> Bool {
        guard let number = value as? Double else { return false }
        return abs(number - expected) <= tolerance
    }
}
