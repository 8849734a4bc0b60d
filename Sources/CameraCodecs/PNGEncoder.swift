import CameraCore
import CStb
import Foundation

/// Writes a `PixelBuffer` of any format as an 8-bit RGB PNG, the lossless format every viewer and
/// browser reads: for snapshots, test artefacts and debugging what the camera saw.
///
/// Every format goes through `PixelBuffer.rgb8()` (BT.709 for Y'CbCr, a bilinear demosaic for
/// Bayer). Alpha is not kept: camera frames carry none, and a bgra8 frame whose producer left
/// alpha at 0 would otherwise be an invisible PNG.
public struct PNGEncoder: Sendable {
    public init() {}

    /// The PNG file contents for `buffer`.
    public func encode(_ buffer: PixelBuffer) throws(CodecError) -> Data {
        let rgb = buffer.rgb8()
        var length: Int32 = 0
        guard let bytes = cstb_write_png_to_memory(rgb, Int32(buffer.width * 3), Int32(buffer.width),
                                                   Int32(buffer.height), 3, &length) else {
            throw CodecError(.encodingFailed, "cannot encode a \(buffer.width)×\(buffer.height) \(buffer.format)"
                + " buffer as PNG: out of memory — free memory and try again")
        }
        defer { cstb_free(bytes) }
        return Data(bytes: bytes, count: Int(length))
    }

    /// Writes `buffer` to `url` as PNG atomically: readers see the old file or the whole new one.
    public func write(_ buffer: PixelBuffer, to url: URL) throws(CodecError) {
        try FileAccess.writeAtomically(encode(buffer), to: url)
    }
}
