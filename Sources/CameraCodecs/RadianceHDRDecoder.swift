import CameraCore
import Foundation

/// Reads Radiance RGBE (`.hdr`) images — the format of HDR environment maps and of `scene render`
/// output — into a `RadianceImage` for the simulated camera.
///
/// The header and the pixel data are checked first (magic, FORMAT, resolution, size limits, and a
/// walk over every scanline), so a wrong, corrupt, truncated or absurdly large file is a thrown
/// `CodecError` that says what is wrong — never a crash, a hang, an image padded with black, or an
/// allocation the machine cannot hold. Only then are the pixels decoded, straight into the
/// image's samples (12 bytes a pixel, the only copy). The result is sanitised
/// (`RadianceImage.sanitize()`), so huge values are clamped. An `EXPOSURE=` header line is
/// ignored, as most readers do.
public struct RadianceHDRDecoder: Sendable {
    /// Bytes of memory one decoded pixel takes: three 32-bit floats.
    public static let bytesPerDecodedPixel = 12
    /// Bytes of memory one pixel decoded by `decodePacked` takes: an RGBE word.
    public static let bytesPerPackedPixel = 4

    /// The most pixels an image may have to be decoded: `defaultPixelLimit` unless chosen.
    public let pixelLimit: Int

    /// The pixel limit on a machine with `physicalMemory` bytes: as many pixels as fit in its
    /// `MemoryBudget` once decoded, capped at the format limit of 100 million pixels (1.2 GB).
    /// 2 GB of memory allow 44 Mpixel (e.g. 9400×4700); 8 GB or more, 100 Mpixel.
    public static func pixelLimit(physicalMemory: UInt64) -> Int {
        min(RadianceHDRHeader.maximumPixelCount, MemoryBudget.pixels(bytesPerPixel: bytesPerDecodedPixel, physicalMemory: physicalMemory))
    }

    /// The pixel limit on this machine.
    public static let defaultPixelLimit = pixelLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory)

    public init(pixelLimit: Int = defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// Decodes the `.hdr` file at `url`.
    public func decode(contentsOf url: URL) throws(CodecError) -> RadianceImage {
        try FileAccess.read(url).withUnsafeBytes { bytes in
            Result { () throws(CodecError) in try decode(bytes, source: url.path) }
        }.get()
    }

    /// Decodes `.hdr` bytes; `source` names them in error messages (a path, or "HDR data").
    public func decode(_ data: Data, source: String = "HDR data") throws(CodecError) -> RadianceImage {
        try data.withUnsafeBytes { bytes in
            Result { () throws(CodecError) in try decode(bytes, source: source) }
        }.get()
    }

    /// An image as Radiance RGBE words, 4 bytes a pixel: what the simulated camera keeps of an
    /// environment map, a third of its size as floats.
    public struct Packed: Sendable {
        public let width: Int
        public let height: Int
        /// `width × height` words, top row first: red in bits 0…7, green 8…15, blue 16…23 and the
        /// exponent E in 24…31; the radiance of a channel is mantissa × 2^(E − 136), 0 when E is 0.
        /// Not sanitised: a word may stand for up to 1.7e38.
        public var pixels: [UInt32]
    }

    /// Decodes `.hdr` bytes into RGBE words; `source` names them in error messages.
    public func decodePacked(_ data: Data, source: String = "HDR data") throws(CodecError) -> Packed {
        try data.withUnsafeBytes { bytes in
            Result { () throws(CodecError) in try decodePacked(bytes, source: source) }
        }.get()
    }

    func decodePacked(_ bytes: UnsafeRawBufferPointer, source: String) throws(CodecError) -> Packed {
        let header = try RadianceHDRHeader(parsing: bytes, source: source)
        try checkLimit(header, source: source, bytesPerPixel: Self.bytesPerPackedPixel)
        _ = try RadianceHDRPixelData.byteCount(in: bytes, header: header, source: source)
        return Packed(width: header.width, height: header.height, pixels: RadianceHDRPixelData.decodePacked(bytes, header: header))
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, source: String) throws(CodecError) -> RadianceImage {
        let header = try RadianceHDRHeader(parsing: bytes, source: source)
        try checkLimit(header, source: source)
        _ = try RadianceHDRPixelData.byteCount(in: bytes, header: header, source: source)
        var image = RadianceImage(width: header.width, height: header.height,
                                  samples: RadianceHDRPixelData.decode(bytes, header: header))
        image.sanitize()
        return image
    }

    /// Throws `.tooLarge` when the decoded image would exceed `pixelLimit`, before anything is allocated.
    func checkLimit(_ header: RadianceHDRHeader, source: String, bytesPerPixel: Int = bytesPerDecodedPixel) throws(CodecError) {
        let pixels = header.width * header.height
        guard pixels > pixelLimit else { return }
        func mpixels(_ count: Int) -> String { String(format: "%.0f", Double(count) / 1e6) }
        let gigabytes = String(format: "%.1f", Double(pixels * bytesPerPixel) / 1e9)
        throw CodecError(.tooLarge, "too large: \(source) is \(header.width)×\(header.height) (\(mpixels(pixels)) Mpixel,"
            + " \(gigabytes) GB decoded); the limit is \(mpixels(pixelLimit)) Mpixel — downscale it"
            + " (oiiotool in.hdr --resize 50% -o out.hdr)")
    }
}
