import Foundation

/// The part of a file a `Range` request asks for (RFC 9110 §14): one `bytes=` range, resolved
/// against the file's size. Browsers' `<video>` asks for ranges to play and seek a movie.
public struct ByteRange: Equatable, Sendable {
    /// The first byte sent.
    public let offset: Int64
    /// How many bytes are sent, at least one.
    public let length: Int64

    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// The range that `header` (a `Range` field's value) asks for in a file of `size` bytes: nil
    /// when the whole file is to be sent — no header, another unit, several ranges or a malformed
    /// one, all of which RFC 9110 lets a server answer with the whole file. A well-formed range
    /// that starts past the end is unsatisfiable: a 416 naming the size (`Content-Range: bytes */SIZE`).
    public static func requested(by header: String?, size: Int64) throws(HTTPError) -> ByteRange? {
        guard let header, let spec = spec(header) else { return nil }
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty {
            // A suffix: the last N bytes.
            guard let suffix = number(bounds[1]) else { return nil }
            guard suffix > 0, size > 0 else { throw unsatisfiable(spec, size: size) }
            return ByteRange(offset: size - min(suffix, size), length: min(suffix, size))
        }
        guard let start = number(bounds[0]) else { return nil }
        var end = size - 1
        if !bounds[1].isEmpty {
            guard let last = number(bounds[1]), last >= start else { return nil }
            end = min(last, end)
        }
        guard start < size else { throw unsatisfiable(spec, size: size) }
        return ByteRange(offset: start, length: end - start + 1)
    }

    /// The one range after `bytes=`, or nil for another unit or a list of ranges.
    private static func spec(_ header: String) -> String? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        return spec.contains(",") ? nil : spec
    }

    /// A byte position: ASCII digits only (no sign, no spaces).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(text)
    }

    private static func unsatisfiable(_ spec: String, size: Int64) -> HTTPError {
        HTTPError(.rangeNotSatisfiable, "Range bytes=\(spec) is outside the \(size)-byte file — ask for bytes 0…\(max(size - 1, 0))",
                  headers: ["Content-Range": "bytes */\(size)"])
    }
}
