import CameraCore

/// Why the image pipeline could not develop or render a frame.
public enum ISPError: Error, Equatable, CustomStringConvertible {
    /// A bayer16 frame came without `metadata.rawCalibration`, so its black level, white level and
    /// colour matrix are unknown.
    case missingRawCalibration(PixelFormat)
    /// The calibration's white level is beyond what the frame's significant bits can hold.
    case whiteLevelOutOfRange(whiteLevel: Int, significantBits: Int)
    /// The output buffer's format is one the pipeline cannot encode (bayer16).
    case unsupportedOutputFormat(PixelFormat)
    /// The output buffer is not the developed frame's size.
    case sizeMismatch(output: PixelSize, developed: PixelSize)

    public var description: String {
        switch self {
        case .missingRawCalibration(let format):
            "a \(format) frame has no raw calibration (black level, white level, colour matrix) in its metadata"
                + " — the camera must set metadata.rawCalibration on raw frames"
        case .whiteLevelOutOfRange(let whiteLevel, let bits):
            "the raw calibration's white level \(whiteLevel) is beyond \(bits)-bit samples (at most \((1 << bits) - 1))"
        case .unsupportedOutputFormat(let format):
            "the image pipeline cannot render into a \(format) buffer — choose bgra8, nv12, nv12-full, yuyv422 or gray8"
        case .sizeMismatch(let output, let developed):
            "the output buffer is \(output.width)x\(output.height) but the developed frame is \(developed.width)x\(developed.height)"
        }
    }
}
