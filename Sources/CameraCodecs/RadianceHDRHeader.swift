/// The header of a Radiance RGBE (`.hdr`) file, checked by us before stb_image sees the file so that
/// a wrong, corrupt or absurd file is a precise error instead of a guess.
///
/// The layout is a magic line (`#?RADIANCE` or `#?RGBE`), header lines ending with a blank line
/// (an optional `FORMAT=32-bit_rle_rgbe` among them), then a resolution line `-Y <height> +X <width>`
/// followed by the pixel data.
struct RadianceHDRHeader: Sendable {
    /// The largest width or height accepted.
    static let maximumDimension = 32768
    /// The largest width × height accepted (1.2 GB of decoded floats).
    static let maximumPixelCount = 100_000_000
    /// How far we look for the end of the header; real headers are a few hundred bytes.
    static let maximumHeaderLength = 65536

    let width: Int
    let height: Int
    /// The offset of the first byte of pixel data, just past the resolution line.
    let pixelOffset: Int

    /// Parses the header at the start of `bytes`; `source` names them in errors.
    init(parsing bytes: UnsafeRawBufferPointer, source: String) throws(CodecError) {
        guard !bytes.isEmpty else {
            throw CodecError(.wrongFormat, "empty: \(source) has no bytes — give a .hdr (RGBE) file")
        }
        let magics = ["#?RADIANCE", "#?RGBE"]
        guard let magic = Self.line(in: bytes, from: 0), magics.contains(magic.text) else {
            if magics.contains(String(decoding: bytes.prefix(16), as: UTF8.self)) {
                throw CodecError(.truncated, "truncated: \(source) ends after its first line ('\(Self.preview(bytes))')"
                    + " — the file is incomplete; download or export it again")
            }
            throw CodecError(.wrongFormat, "not a Radiance HDR file: \(source) starts with '\(Self.preview(bytes))'"
                + " — give a .hdr (RGBE) file, whose first line is #?RADIANCE or #?RGBE")
        }
        var position = magic.next
        var format: String?
        while true {
            guard let line = Self.line(in: bytes, from: position) else {
                if bytes.count >= Self.maximumHeaderLength {
                    throw CodecError(.malformed, "malformed Radiance HDR header: \(source) has no blank line ending its"
                        + " header within the first \(Self.maximumHeaderLength) bytes — the file is corrupt; export it again")
                }
                throw CodecError(.truncated, "truncated: \(source) ends inside its header after \(bytes.count) bytes,"
                    + " before the resolution line — the file is incomplete; download or export it again")
            }
            position = line.next
            let text = line.text
            if text.isEmpty { break }
            if text.hasPrefix("FORMAT=") { format = String(text.dropFirst("FORMAT=".count)) }
            if text.hasPrefix("-Y ") || text.hasPrefix("+Y ") {
                throw CodecError(.malformed, "malformed Radiance HDR header: \(source) has no blank line before its"
                    + " resolution line '\(text)' — the file is corrupt; export it again")
            }
        }
        if let format, format != "32-bit_rle_rgbe" {
            throw CodecError(.unsupported, "unsupported Radiance HDR format: \(source) has FORMAT=\(format), only"
                + " 32-bit_rle_rgbe (RGB) is supported — convert it: oiiotool in.hdr -o out.hdr")
        }
        guard position < bytes.count else {
            throw CodecError(.truncated, "missing resolution line: \(source) ends right after its header — expected"
                + " '-Y <height> +X <width>'; the file is incomplete, download or export it again")
        }
        let resolution = Self.line(in: bytes, from: position) ?? Line(bytes: bytes[position...].prefix(80), next: bytes.count)
        (width, height) = try Self.dimensions(resolution, source: source)
        pixelOffset = resolution.next
    }

    /// The width and height in a resolution line `-Y <height> +X <width>`.
    private static func dimensions(_ line: Line, source: String) throws(CodecError) -> (width: Int, height: Int) {
        let tokens = line.text.split(separator: " ")
        let axes = ["-Y", "+Y", "-X", "+X"]
        guard tokens.count == 4, axes.contains(String(tokens[0])), axes.contains(String(tokens[2])) else {
            throw CodecError(.malformed, "missing resolution line: expected '-Y <height> +X <width>' after the header"
                + " of \(source), found '\(printable(line.bytes.prefix(40)))' — the file is corrupt; export it again")
        }
        guard tokens[0] == "-Y", tokens[2] == "+X" else {
            throw CodecError(.unsupported, "unsupported pixel order '\(line.text)' in \(source): only '-Y <height> +X <width>'"
                + " (top to bottom, left to right) is supported — re-save it: oiiotool in.hdr -o out.hdr")
        }
        let range = 1...maximumDimension
        guard let height = Int(tokens[1]), let width = Int(tokens[3]), range.contains(width), range.contains(height) else {
            // Digits too many for an Int are as much "too large" as a number over the limit.
            let isLarge = [tokens[1], tokens[3]].contains { token in
                token.allSatisfy { $0.isASCII && $0.isNumber } && (Int(token).map { $0 > maximumDimension } ?? true)
            }
            throw CodecError(isLarge ? .tooLarge : .malformed, "absurd dimensions \(tokens[3])×\(tokens[1]) (width × height)"
                + " in \(source): each must be 1…\(maximumDimension) — the file is corrupt or too large; downscale it"
                + " (oiiotool in.hdr --resize 50% -o out.hdr)")
        }
        guard width * height <= maximumPixelCount else {
            throw CodecError(.tooLarge, "too large: \(source) is \(width)×\(height) = \(width * height) pixels, more than"
                + " \(maximumPixelCount) — downscale it (oiiotool in.hdr --resize 50% -o out.hdr)")
        }
        return (width, height)
    }

    /// One header line (without its "\n" or "\r\n") and where the next one begins.
    private struct Line {
        let bytes: Slice<UnsafeRawBufferPointer>
        let next: Int
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// The line that starts at `start`, or nil when no "\n" follows within the header limit.
    private static func line(in bytes: UnsafeRawBufferPointer, from start: Int) -> Line? {
        let limit = min(bytes.count, maximumHeaderLength)
        guard start < limit, let newline = bytes[start..<limit].firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return Line(bytes: bytes[start..<end], next: newline + 1)
    }

    /// The first bytes of a file, up to its first line break, for an error message.
    private static func preview(_ bytes: UnsafeRawBufferPointer) -> String {
        printable(bytes.prefix(16).prefix { $0 != 0x0A && $0 != 0x0D })
    }

    /// `bytes` as text, with anything but printable ASCII written as \xNN.
    private static func printable(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
