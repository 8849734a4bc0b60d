import CameraCapture
import CameraCodecs
import CameraCore
import CameraSimulated
import CameraStills
import CameraTestSupport
import Foundation
import Testing

/// RAW + JPEG photos on the simulated camera's raw frames: the DNG is the raw frame the JPEG was
/// developed from, read back by exiftool and rawpy, with the JPEG's exposure; a processed stream
/// refuses, naming its format.
@Suite("RAW + JPEG photos on the simulated camera", .serialized)
struct RawPhotoTests {
    /// exiftool's reading of the pair's two files.
    static func tags(of photo: CapturedPhoto, dng: Data, in folder: URL) async throws -> (jpeg: [String: Any], dng: [String: Any]) {
        let jpegFile = folder.appendingPathComponent("photo.jpg"), dngFile = folder.appendingPathComponent("photo.dng")
        try Data(photo.data).write(to: jpegFile)
        try dng.write(to: dngFile)
        let read = try await ExifTool.read(files: [jpegFile.path, dngFile.path])
        return (try #require(read[jpegFile.path]), try #require(read[dngFile.path]))
    }

    @Test("A raw photo: the DNG has the frame's size, calibration and gains, and the JPEG's exposure tags",
          arguments: [nil, [-2.0, 0, 2]] as [[Double]?])
    func pair(bracket: [Double]?) async throws {
        try await BracketPhotoTests.withSettledCamera(.grayCard) { _, photos in
            let photo = try await photos.capture(PhotoSettings(bracket: bracket, raw: true))
            let dng = try #require(photo.rawData, "a raw photo carries its DNG")
            try await withScratchDirectory { folder in
                let (jpeg, raw) = try await Self.tags(of: photo, dng: dng, in: folder)
                // TIFF rationals as libtiff writes them (through a float) and as libexif does agree to 1e-6.
                for tag in ["ExposureTime", "FNumber", "ISO", "FocalLength"] {
                    let (dngValue, jpegValue) = ((raw[tag] as? NSNumber)?.doubleValue, (jpeg[tag] as? NSNumber)?.doubleValue)
                    #expect(dngValue.map { abs($0 / (jpegValue ?? .nan) - 1) < 1e-6 } == true, "\(tag): DNG \(raw[tag] ?? "none"), JPEG \(jpeg[tag] ?? "none")")
                }
                for tag in ["DateTimeOriginal", "Make", "Model"] {
                    #expect(raw[tag] as? String != nil && raw[tag] as? String == jpeg[tag] as? String, "\(tag): DNG \(raw[tag] ?? "none"), JPEG \(jpeg[tag] ?? "none")")
                }
                let file = folder.appendingPathComponent("photo.dng")
                let read = try await RawPy.run("mosaic", [file.path, folder.appendingPathComponent("mosaic.u16").path])
                #expect(read["width"] as? Int == photo.size.width && read["height"] as? Int == photo.size.height)
                #expect(read["white"] as? Int == 4095, "12-bit samples")
                let gains = photo.metadata.whiteBalanceGains
                let balance = Array((read["cameraWhiteBalance"] as? [Double] ?? []).prefix(3))
                #expect(zip(balance, [gains.red / gains.green, 1, gains.blue / gains.green]).allSatisfy { abs($0 - $1) < 1e-3 },
                        "AsShotNeutral \(balance) against the photo's gains \(gains)")
            }
        }
    }

    @Test("A photo without raw has no DNG")
    func jpegOnly() async throws {
        try await BracketPhotoTests.withSettledCamera(.grayCard) { _, photos in
            let photo = try await photos.capture(PhotoSettings())
            #expect(photo.rawData == nil)
        }
    }

    @Test("A camera whose frames are not raw refuses a raw photo, naming its format and what to do")
    func processedFormat() async throws {
        let bgra = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        try await BracketPhotoTests.withSettledCamera(.grayCard, format: bgra) { _, photos in
            let error = await #expect(throws: PhotoCaptureError.self) { try await photos.capture(PhotoSettings(raw: true)) }
            #expect(error == .unsupported("a RAW + JPEG photo needs the camera's raw frames, and this stream's format bgra8 is not raw — "
                + "choose a raw (bayer16) format, or take the photo without raw"))
        }
    }
}
