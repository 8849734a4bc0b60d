import CameraCore
import CStb
import Foundation

/// Writes a `RadianceImage` as a Radiance RGBE (`.hdr`) file — run-length encoded, readable by
/// `RadianceHDRDecoder` and by common HDR tools — for `scene render --out` and for tests.
///
/// RGBE keeps about 1% precision per pixel and cannot hold NaN, infinities or negative values:
/// NaN and negative samples are written as 0 and values above 1e38 as 1e38. Images up to
/// 32768 pixels on a side and 100 million pixels in all can be written (what the decoder reads).
public struct RadianceHDREncoder: Sendable {
    public init() {}

    /// The `.hdr` file contents for `image`.
    public func encode(_ image: RadianceImage) throws(CodecError) -> Data {
        let limit = RadianceHDRHeader.maximumDimension
        guard image.width <= limit, image.height <= limit,
              image.width * image.height <= RadianceHDRHeader.maximumPixelCount else {
            throw CodecError(.tooLarge, "cannot encode a \(image.width)×\(image.height) image as Radiance HDR: the"
                + " limit is \(limit) pixels per side and \(RadianceHDRHeader.maximumPixelCount) in all — render it smaller")
        }
        var representable = image
        representable.sanitize(ceiling: 1e38)
        var length: Int32 = 0
        guard let bytes = cstb_write_hdr_to_memory(representable.samples, Int32(image.width), Int32(image.height), &length) else {
            throw CodecError(.encodingFailed, "cannot encode a \(image.width)×\(image.height) image as Radiance HDR:"
                + " out of memory — free memory or render it smaller")
        }
        defer { cstb_free(bytes) }
        return Data(bytes: bytes, count: Int(length))
    }

    /// Writes `image` to `url` atomically: readers see the old file or the whole new one.
    public func write(_ image: RadianceImage, to url: URL) throws(CodecError) {
        try FileAccess.writeAtomically(encode(image), to: url)
    }
}
