import CameraCodecs
import CameraCore
import Testing

@Suite struct ExifWriterTests {
    static let size = PixelSize(width: 64, height: 48)

    @Test("a photo is SOI, then the APP1 EXIF segment, then the encoder's JPEG after its SOI, byte for byte")
    func layout() throws {
        let encoder = try JPEGEncoder()
        let buffer = try Frames.gradient(.bgra8, width: 64, height: 48)
        let plain = try encoder.encode(buffer, quality: 80)
        let photo = try encoder.encode(buffer, quality: 80, exif: ExifRoundTripTests.sunset)
        #expect(photo[0..<4] == [0xFF, 0xD8, 0xFF, 0xE1])
        let segmentEnd = 4 + (Int(photo[4]) << 8 | Int(photo[5]))
        #expect(Array(photo[6..<12]) == Array("Exif\0\0".utf8))
        #expect(photo[12..<14] == [0x49, 0x49], "little-endian TIFF (II)")
        #expect(Array(photo[segmentEnd...]) == Array(plain[2...]))
        let decoded = try JPEGDecoder().decode(photo)
        #expect(decoded.width == 64 && decoded.height == 48)
    }

    @Test("inserting a segment puts it right after SOI and keeps every other byte")
    func insertion() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 9, 9, 0xFF, 0xD9]
        let segment: [UInt8] = [0xFF, 0xE1, 0, 4, 1, 2]
        #expect(try ExifWriter.inserting(segment, intoJPEG: jpeg) == [0xFF, 0xD8, 0xFF, 0xE1, 0, 4, 1, 2, 0xFF, 0xDB, 9, 9, 0xFF, 0xD9])
    }

    @Test("inserting into bytes that are not a JPEG is a wrong-format error")
    func insertionIntoNonJPEG() throws {
        let error = #expect(throws: CodecError.self) { try ExifWriter.inserting([0xFF, 0xE1, 0, 2], intoJPEG: Array("GIF89a".utf8)) }
        #expect(error?.kind == .wrongFormat)
        #expect(error?.description.contains("SOI marker (FF D8)") == true)
    }

    @Test("an EXIF block over 64 KiB is a too-large error that says what to shorten")
    func tooLarge() throws {
        var metadata = ExifRoundTripTests.sunset
        metadata.userComment = String(repeating: "sun ", count: 20_000)
        let error = #expect(throws: CodecError.self) { try ExifWriter.app1Segment(for: metadata, pixelSize: Self.size, thumbnail: nil) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.description.contains("shorten the user comment") == true)
    }

    /// The sunset metadata with one change.
    static func sunset(_ change: (inout ExifMetadata) -> Void) -> ExifMetadata {
        var metadata = ExifRoundTripTests.sunset
        change(&metadata)
        return metadata
    }

    @Test("values EXIF cannot hold are errors naming the value and its range", arguments: [
        (sunset { $0.location = GPSLocation(latitude: 91, longitude: 0) },
         "GPS latitude 91 ° is outside the supported range -90…90 ° — choose a value in that range"),
        (sunset { $0.location = GPSLocation(latitude: 0, longitude: -181) },
         "GPS longitude -181 ° is outside the supported range -180…180 ° — choose a value in that range"),
        (sunset { $0.fNumber = 0 }, "EXIF f-number 0 is outside the supported range 0.5…1000 — choose a value in that range"),
        (sunset { $0.digitalZoomRatio = 0.5 },
         "EXIF digital zoom ratio 0.5 is outside the supported range 1…1000 — choose a value in that range"),
        (sunset { $0.exposureTime = .invalid },
         "the EXIF exposure time must be a number of seconds, not invalid — pass the frame's exposure duration"),
        (sunset { $0.exposureTime = MediaTime(value: 0, timescale: 1) },
         "EXIF exposure time 0 s is outside the supported range 1e-06…86400 s — choose a value in that range"),
    ])
    func invalidValues(metadata: ExifMetadata, message: String) throws {
        let error = #expect(throws: CodecError.self) { try ExifWriter.app1Segment(for: metadata, pixelSize: Self.size, thumbnail: nil) }
        #expect(error?.kind == .invalidSetting)
        #expect(error?.description == message)
    }
}
