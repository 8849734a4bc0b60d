import CameraCodecs
import CameraCore
import Foundation
import Testing

/// Inputs a DNG cannot be written from, and what `DNGWriter` says about each.
@Suite struct DNGWriterErrorTests {
    /// One bad input: the mosaic's format, the metadata, the preview's format, and the error expected.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        var rawFormat: PixelFormat = .bayer16(.rggb, significantBits: 12)
        var metadata = DNGSamples.metadata()
        var previewFormat: PixelFormat?
        let kind: CodecError.Kind
        let message: String

        var testDescription: String { name }

        static func calibration(_ matrix: [Double], whiteLevel: Int = 4095) -> DNGMetadata {
            DNGSamples.metadata(calibration: RawCalibration(blackLevel: 256, whiteLevel: whiteLevel, colorMatrix: matrix))
        }

        static func metadata(_ change: (inout DNGMetadata) -> Void) -> DNGMetadata {
            var metadata = DNGSamples.metadata()
            change(&metadata)
            return metadata
        }
    }

    static let badInputs: [BadInput] = [
        BadInput(name: "a processed frame", rawFormat: .bgra8, kind: .unsupported,
                 message: "a DNG holds a raw Bayer mosaic, not a bgra8 buffer — pass the camera's raw frame (bayer16), or save this one as a JPEG"),
        BadInput(name: "a white level above 12 bits", metadata: BadInput.calibration(RawCalibration.identity, whiteLevel: 4096),
                 kind: .invalidSetting, message: "the white level 4096 does not fit the frame's 12 significant bits (at most 4095)"
                    + " — pass the calibration the camera reported with this frame"),
        BadInput(name: "a 12-bit calibration on a 10-bit mosaic", rawFormat: .bayer16(.rggb, significantBits: 10), kind: .invalidSetting,
                 message: "the white level 4095 does not fit the frame's 10 significant bits (at most 1023)"
                    + " — pass the calibration the camera reported with this frame"),
        BadInput(name: "a colour matrix that tints white", metadata: BadInput.calibration([1.5, 0, 0, 0, 1, 0, 0, 0, 1]), kind: .invalidSetting,
                 message: "row 1 of the colour matrix [1.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0] sums to 1.5, not 1"
                    + " — a RawCalibration's camera → Rec. 709 matrix keeps white white; fix the calibration"),
        BadInput(name: "a singular colour matrix", metadata: BadInput.calibration([1, 0, 0, 1, 0, 0, 0, 0, 1]), kind: .invalidSetting,
                 message: "the colour matrix [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0] cannot be inverted (its determinant is 0)"
                    + " — a camera → Rec. 709 matrix must keep the three channels apart; fix the calibration"),
        BadInput(name: "a colour matrix with NaN", metadata: BadInput.calibration([.nan, 0, 1, 0, 1, 0, 0, 0, 1]), kind: .invalidSetting,
                 message: "the colour matrix [nan, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0] holds a value that is not a number — fix the calibration"),
        BadInput(name: "a zero gain", metadata: DNGSamples.metadata(gains: WhiteBalanceGains(red: 0, green: 1, blue: 1.6)), kind: .invalidSetting,
                 message: "the white-balance gains [0.0, 1.0, 1.6] must all be positive"
                    + " — pass the gains the frame was balanced with (FrameMetadata.whiteBalanceGains)"),
        BadInput(name: "an nv12 preview", previewFormat: .nv12(.video), kind: .unsupported,
                 message: "a DNG preview is made from a bgra8 buffer, not nv12 — render the preview as bgra8, or leave it out"),
        BadInput(name: "no model", metadata: BadInput.metadata { $0.exif.model = "" }, kind: .invalidSetting,
                 message: "the camera make \"CameraSun\" and model \"\" must not be empty: a DNG names its camera (UniqueCameraModel)"
                    + " — pass the camera's maker and model"),
        BadInput(name: "an invalid exposure time", metadata: BadInput.metadata { $0.exif.exposureTime = .invalid }, kind: .invalidSetting,
                 message: "the DNG exposure time must be a number of seconds, not invalid — pass the frame's exposure duration"),
        BadInput(name: "a zero exposure time", metadata: BadInput.metadata { $0.exif.exposureTime = .zero }, kind: .invalidSetting,
                 message: "DNG exposure time 0 s is outside the supported range 1e-06…86400 s — choose a value in that range"),
        BadInput(name: "a zero f-number", metadata: BadInput.metadata { $0.exif.fNumber = 0 }, kind: .invalidSetting,
                 message: "DNG f-number 0 is outside the supported range 0.5…1000 — choose a value in that range"),
        BadInput(name: "ISO 0", metadata: BadInput.metadata { $0.exif.iso = 0 }, kind: .invalidSetting,
                 message: "DNG ISO speed 0 is outside the supported range 1…10000000 — choose a value in that range"),
        BadInput(name: "an infinite focal length", metadata: BadInput.metadata { $0.exif.focalLength = .infinity }, kind: .invalidSetting,
                 message: "DNG focal length inf mm is outside the supported range 0.1…100000 mm — choose a value in that range"),
    ]

    @Test("a bad input throws a CodecError that names the value and says what to do", arguments: badInputs)
    func rejects(_ input: BadInput) throws {
        let raw = try PixelBuffer(format: input.rawFormat, width: 64, height: 48)
        let preview = try input.previewFormat.map { try PixelBuffer(format: $0, width: 32, height: 24) }
        let error = #expect(throws: CodecError.self) { try DNGWriter.data(raw: raw, metadata: input.metadata, preview: preview) }
        #expect(error?.kind == input.kind)
        #expect(error?.description == input.message)
    }
}
