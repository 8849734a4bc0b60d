/// Checks the pixel data of a Radiance RGBE file by walking it exactly as stb_image reads it, so that
/// a truncated or corrupt file is an error instead of an image silently padded with black.
///
/// stb_image reads images 8…32767 pixels wide as run-length-encoded scanlines when the first one
/// starts with the RLE marker (2, 2, width high byte < 128), and everything else as flat 4-byte
/// RGBE pixels. Each RLE scanline is `2 2 hi lo` (hi·256 + lo = width) followed by the R, G, B and E
/// channels, each as runs (count 129…255, then one value repeated count − 128 times) or dumps
/// (count 1…128, then that many values).
enum RadianceHDRPixelData {
    /// The number of bytes that the pixels described by `header` take in `bytes`.
    static func byteCount(in bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader, source: String) throws(CodecError) -> Int {
        let start = header.pixelOffset
        let width = header.width
        if isRunLengthEncoded(bytes, header: header) {
            return try rleByteCount(in: bytes, header: header, source: source)
        }
        let expected = width * header.height * 4
        guard bytes.count - start >= expected else {
            throw truncated(source, expected: expected, found: bytes.count - start,
                            detail: "\(width)×\(header.height) flat RGBE pixels")
        }
        return expected
    }

    /// Whether the pixels are read as RLE scanlines: a width of 8…32767 and a first scanline that
    /// starts with the marker.
    static func isRunLengthEncoded(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> Bool {
        (8..<32768).contains(header.width) && bytes.count - header.pixelOffset >= 4 && isRLEMarker(bytes, at: header.pixelOffset)
    }

    /// The smallest possible RLE scanline: the marker and, per channel, runs of at most 127 pixels.
    private static func minimumRLEScanline(width: Int) -> Int {
        4 + 4 * 2 * ((width + 126) / 127)
    }

    private static func isRLEMarker(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        bytes[offset] == 2 && bytes[offset + 1] == 2 && bytes[offset + 2] & 0x80 == 0
    }

    private static func rleByteCount(in bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader, source: String) throws(CodecError) -> Int {
        let (width, height, start, end) = (header.width, header.height, header.pixelOffset, bytes.count)
        var position = start
        for row in 0..<height {
            let rowStart = position
            let cutShort = { () -> CodecError in
                truncated(source, expected: rowStart - start + (height - row) * minimumRLEScanline(width: width),
                          found: end - start, detail: "\(height) RLE scanlines of \(width) pixels (it ends inside scanline \(row + 1))")
            }
            guard end - position >= 4 else { throw cutShort() }
            guard isRLEMarker(bytes, at: position) else {
                throw CodecError(.unsupported, "unsupported Radiance HDR data: scanline \(row + 1) of \(height) in \(source)"
                    + " is flat although the first is run-length encoded — re-save it: oiiotool in.hdr -o out.hdr")
            }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length == width else {
                throw CodecError(.malformed, "malformed Radiance HDR data: scanline \(row + 1) of \(height) in \(source)"
                    + " declares \(length) pixels, the image is \(width) wide — the file is corrupt; export it again")
            }
            position += 4
            for channel in 0..<4 {
                var filled = 0
                while filled < width {
                    guard position < end else { throw cutShort() }
                    let count = Int(bytes[position])
                    let isRun = count > 128
                    let pixels = isRun ? count - 128 : count
                    guard pixels > 0, pixels <= width - filled else {
                        throw CodecError(.malformed, "malformed Radiance HDR data: scanline \(row + 1) of \(height) in"
                            + " \(source) has a \(isRun ? "run" : "copy") of \(pixels) pixels in channel \(channel)"
                            + " where \(width - filled) remain — the file is corrupt; export it again")
                    }
                    let size = 1 + (isRun ? 1 : pixels)
                    guard end - position >= size else { throw cutShort() }
                    position += size
                    filled += pixels
                }
            }
        }
        return position - start
    }

    static func truncated(_ source: String, expected: Int, found: Int, detail: String) -> CodecError {
        CodecError(.truncated, "truncated: \(source) has \(found) bytes of pixel data, expected at least \(expected)"
            + " for \(detail) — the file is incomplete; download or export it again")
    }
}
