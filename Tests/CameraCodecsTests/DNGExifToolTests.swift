import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// DNGs from `DNGWriter`, checked and read back by exiftool.
@Suite struct DNGExifToolTests {
    /// What exiftool reads from the DNG of `raw` with `metadata` and `preview`.
    func tags(raw: PixelBuffer, metadata: DNGMetadata = DNGSamples.metadata(), preview: PixelBuffer? = nil) async throws -> [String: Any] {
        let dng = try DNGWriter.data(raw: raw, metadata: metadata, preview: preview)
        return try await withScratchDirectory { folder in try await ExifTool.readGrouped(file: DNGSamples.file(dng, in: folder).path) }
    }

    /// The numbers of a tag exiftool prints as a space-separated list.
    func numbers(_ value: Any?) -> [Double] {
        (value as? String)?.split(separator: " ").compactMap { Double($0) } ?? (value as? Double).map { [$0] } ?? []
    }

    @Test("exiftool -validate finds no error and no warning, with or without a preview")
    func validates() async throws {
        for preview in [nil, try Frames.gradient(.bgra8, width: 128, height: 96)] {
            let dng = try DNGWriter.data(raw: DNGSamples.allValues(), metadata: DNGSamples.metadata(), preview: preview)
            try await withScratchDirectory { folder in
                let file = try DNGSamples.file(dng, in: folder)
                let (status, report, errors) = try await ExifTool.run(["-validate", "-warning", "-error", "-a", "-s", file.path])
                #expect(status == 0, "\(errors)")
                #expect(report == "Validate                        : OK\n", "\(report)")
            }
        }
    }

    @Test("IFD0 holds the raw mosaic with the DNG tags, the camera and the orientation")
    func rawDirectory() async throws {
        let tags = try await tags(raw: DNGSamples.allValues())
        #expect(tags["IFD0:SubfileType"] as? Int == 0)
        #expect(tags["IFD0:ImageWidth"] as? Int == 256)
        #expect(tags["IFD0:ImageHeight"] as? Int == 192)
        #expect(tags["IFD0:BitsPerSample"] as? Int == 16)
        #expect(tags["IFD0:PhotometricInterpretation"] as? Int == 32803)
        #expect(tags["IFD0:DNGVersion"] as? String == "1 4 0 0")
        #expect(tags["IFD0:DNGBackwardVersion"] as? String == "1 1 0 0")
        #expect(tags["IFD0:Make"] as? String == "CameraSun")
        #expect(tags["IFD0:Model"] as? String == "Simulated Camera")
        #expect(tags["IFD0:UniqueCameraModel"] as? String == "CameraSun Simulated Camera")
        #expect(tags["IFD0:Orientation"] as? Int == 6)
        #expect(tags["IFD0:CFARepeatPatternDim"] as? String == "2 2")
        #expect(tags["IFD0:CFAPattern2"] as? String == "0 1 1 2")
        #expect(tags["IFD0:CFAPlaneColor"] as? String == "0 1 2")
        #expect(tags["IFD0:CFALayout"] as? Int == 1)
        #expect(tags["IFD0:BlackLevel"] as? Int == 256)
        #expect(tags["IFD0:WhiteLevel"] as? Int == 4095)
        #expect(tags["IFD0:CalibrationIlluminant1"] as? Int == 21)
        #expect(tags["SubIFD:ImageWidth"] == nil)
    }

    @Test("the EXIF IFD holds the exposure and the moment of capture")
    func exposure() async throws {
        let tags = try await tags(raw: DNGSamples.allValues())
        // libtiff keeps rationals as floats: 1/250 s comes back within 1 part in 10⁷.
        #expect(abs((tags["ExifIFD:ExposureTime"] as? Double ?? 0) - 1.0 / 250) < 1e-9)
        #expect(abs((tags["ExifIFD:FNumber"] as? Double ?? 0) - 2.8) < 1e-6)
        #expect(tags["ExifIFD:ISO"] as? Int == 400)
        #expect(tags["ExifIFD:FocalLength"] as? Double == 4.25)
        #expect(tags["ExifIFD:DateTimeOriginal"] as? String == "2024:06:21 18:42:07")
        #expect(tags["ExifIFD:SubSecTimeOriginal"] as? Int == 123)
        #expect(tags["ExifIFD:OffsetTimeOriginal"] as? String == "+02:00")
    }

    @Test("AsShotNeutral is 1/gain with green 1, and ColorMatrix1 takes D65 white to it, largest component 1")
    func colour() async throws {
        let tags = try await tags(raw: DNGSamples.allValues())
        let neutral = numbers(tags["IFD0:AsShotNeutral"]), matrix = numbers(tags["IFD0:ColorMatrix1"])
        let expected = [1 / 1.9, 1, 1 / 1.6]
        #expect(neutral.count == 3 && zip(neutral, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(neutral)")
        let d65 = [0.950_47, 1, 1.088_83]  // CIE XYZ of D65, Y = 1
        let white = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + matrix[row * 3 + $1] * d65[$1] } }
        let scaled = expected.map { $0 / expected.max()! }
        #expect(matrix.count == 9 && zip(white, scaled).allSatisfy { abs($0 - $1) < 1e-4 }, "\(white)")
    }

    @Test("with an identity calibration and unity gains, ColorMatrix1 is the standard XYZ → linear sRGB matrix")
    func identityCalibration() async throws {
        let metadata = DNGSamples.metadata(calibration: RawCalibration(blackLevel: 256, whiteLevel: 4095), gains: .unity)
        let matrix = numbers(try await tags(raw: DNGSamples.allValues(), metadata: metadata)["IFD0:ColorMatrix1"])
        // IEC 61966-2-1's XYZ (D65) → linear sRGB, as Bruce Lindbloom tabulates it.
        let sRGB = [3.240_454_2, -1.537_138_5, -0.498_531_4, -0.969_266_0, 1.876_010_8, 0.041_556_0, 0.055_643_4, -0.204_025_9, 1.057_225_2]
        #expect(matrix.count == 9 && zip(matrix, sRGB).allSatisfy { abs($0 - $1) < 1e-4 }, "\(matrix)")
    }

    @Test("the preview is IFD0's SubIFD: 8-bit RGB, NewSubFileType 1, PreviewColorSpace sRGB")
    func preview() async throws {
        let tags = try await tags(raw: DNGSamples.allValues(), preview: Frames.gradient(.bgra8, width: 128, height: 96))
        #expect(tags["SubIFD:SubfileType"] as? Int == 1)
        #expect(tags["SubIFD:ImageWidth"] as? Int == 128)
        #expect(tags["SubIFD:ImageHeight"] as? Int == 96)
        #expect(tags["SubIFD:BitsPerSample"] as? String == "8 8 8")
        #expect(tags["SubIFD:SamplesPerPixel"] as? Int == 3)
        #expect(tags["SubIFD:PhotometricInterpretation"] as? Int == 2)
        #expect(tags["SubIFD:PreviewColorSpace"] as? Int == 2)
        #expect(tags["IFD0:SubfileType"] as? Int == 0)
    }
}
