import CameraCodecs
import CameraCore
import Foundation

extension PhotoOutput {
    /// The size a DNG's preview fits within: the writer stores it uncompressed, so it stays small.
    static let rawPreviewBound = PixelSize(width: 256, height: 256)

    /// The DNG of a RAW + JPEG pair: the raw frame `picture` was developed from, with its
    /// calibration and white-balance gains, the JPEG's EXIF (one shot, one description), and a
    /// small preview of `picture`. A bracket's raw frame is its reference (the offset nearest 0 EV),
    /// whose exposure the fused JPEG states. Throws `.unsupported` naming the format when the
    /// stream is not raw.
    static func dng(of raw: Frame?, picture: PixelBuffer, exif: ExifMetadata) throws(PhotoCaptureError) -> Data {
        guard let raw, let calibration = raw.metadata.rawCalibration else {
            throw .unsupported("a RAW + JPEG photo needs the camera's raw frames, and this stream's format "
                + "\(picture.format.name) is not raw — choose a raw (bayer16) format, or take the photo without raw")
        }
        do {
            let metadata = DNGMetadata(exif: exif, calibration: calibration, whiteBalanceGains: raw.metadata.whiteBalanceGains)
            return try DNGWriter.data(raw: raw.buffer, metadata: metadata,
                                      preview: PreviewScaler.scaled(picture, within: rawPreviewBound))
        } catch {
            throw .processingFailed("the DNG: \(error)")
        }
    }
}
