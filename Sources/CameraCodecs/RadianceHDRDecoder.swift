import CameraCore
import CStb
import Foundation

/// Reads Radiance RGBE (`.hdr`) images — the format of HDR environment maps and of `scene render`
/// output — into a `RadianceImage` for the simulated camera.
///
/// The header and the pixel data are checked first (magic, FORMAT, resolution, size limits, and a
/// walk over every scanline), so a wrong, corrupt, truncated or absurdly large file is a thrown
/// `CodecError` that says what is wrong — never a crash, a hang or an image padded with black.
/// Only then does stb_image decode the pixels. The result is sanitised (`RadianceImage.sanitize()`),
/// so huge values are clamped. An `EXPOSURE=` header line is ignored, as most readers do.
public struct RadianceHDRDecoder: Sendable {
    public init() {}

    /// Decodes the `.hdr` file at `url`.
    public func decode(contentsOf url: URL) throws(CodecError) -> RadianceImage {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw CodecError(.unreadable, "cannot read \(url.path): \(FileAccess.reason(error))"
                + " — check the path and its permissions")
        }
        return try decode(data, source: url.path)
    }

    /// Decodes `.hdr` bytes; `source` names them in error messages (a path, or "HDR data").
    public func decode(_ data: Data, source: String = "HDR data") throws(CodecError) -> RadianceImage {
        try data.withUnsafeBytes { bytes in
            Result { () throws(CodecError) in try decode(bytes, source: source) }
        }.get()
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, source: String) throws(CodecError) -> RadianceImage {
        let header = try RadianceHDRHeader(parsing: bytes, source: source)
        let pixelBytes = try RadianceHDRPixelData.byteCount(in: bytes, header: header, source: source)
        // stb_image gets a canonical header with exactly the checked pixel data: it needs the
        // FORMAT line, which our check allows to be absent, and must never read past the data.
        var stream = Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y \(header.height) +X \(header.width)\n".utf8)
        stream.append(contentsOf: bytes[header.pixelOffset..<(header.pixelOffset + pixelBytes)])
        var width: Int32 = 0
        var height: Int32 = 0
        guard let floats = cstb_load_hdr_from_memory(stream, Int32(stream.count), &width, &height) else {
            let reason = cstb_failure_reason().map { String(cString: $0) } ?? "unknown error"
            throw CodecError(.malformed, "malformed Radiance HDR data: stb_image could not decode \(source) (\(reason))"
                + " — the file is corrupt; export it again")
        }
        defer { cstb_free(floats) }
        guard Int(width) == header.width, Int(height) == header.height else {
            throw CodecError(.malformed, "malformed Radiance HDR data: stb_image decoded \(source) as \(width)×\(height),"
                + " the header says \(header.width)×\(header.height) — the file is corrupt; export it again")
        }
        var image = RadianceImage(width: header.width, height: header.height,
                                  samples: Array(UnsafeBufferPointer(start: floats, count: header.width * header.height * 3)))
        image.sanitize()
        return image
    }
}
