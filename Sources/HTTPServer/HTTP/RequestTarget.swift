/// The path and query of a request, parsed from the raw request-target before anything else looks at
/// it, so that encoded tricks are judged after decoding: `..` or `.` segments (also as `%2e%2e`), NUL
/// (`%00`), malformed escapes and non-UTF-8 bytes are refused with 400.
public struct RequestTarget: Equatable, Sendable {
    public let path: String
    public let query: [String: String]

    /// Parses `raw` (e.g. `/library/3?token=ab`); throws a 400 `HTTPError` naming the problem.
    public init(_ raw: String) throws(HTTPError) {
        let (rawPath, rawQuery) = Self.split(raw)
        guard rawPath.hasPrefix("/") else {
            throw .badRequest("request target \"\(raw)\" does not start with / — send an absolute path")
        }
        let path = try Self.decode(rawPath, plusIsSpace: false, what: "path")
        // On the bytes, not Characters: a combining mark makes one Character of "/" or "\\" and itself.
        for segment in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        where segment.elementsEqual("..".utf8) || segment.elementsEqual(".".utf8) {
            throw .badRequest("path \"\(path)\" has a \"\(String(decoding: segment, as: UTF8.self))\" segment — paths may not leave or name their directory")
        }
        if path.utf8.contains(UInt8(ascii: "\\")) {
            throw .badRequest("path \"\(path)\" contains a backslash — use / between segments")
        }
        var query: [String: String] = [:]
        for pair in rawQuery.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], plusIsSpace: true, what: "query parameter name")
            let value = parts.count > 1 ? try Self.decode(parts[1], plusIsSpace: true, what: "query parameter \(name)") : ""
            query[name] = value
        }
        self.path = path
        self.query = query
    }

    private static func split(_ raw: String) -> (path: Substring, query: Substring) {
        let withoutFragment = raw.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (withoutFragment, "") }
        return (withoutFragment[..<mark], withoutFragment[withoutFragment.index(after: mark)...])
    }

    /// Percent-decodes `text` strictly: every `%` needs two hex digits, and the result must be UTF-8
    /// without NUL.
    private static func decode(_ text: Substring, plusIsSpace: Bool, what: String) throws(HTTPError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .badRequest("\(what) \"\(text)\" has a % not followed by two hex digits — encode % as %25")
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        if bytes.contains(0) {
            throw .badRequest("\(what) \"\(text)\" contains NUL (%00) — remove it")
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("\(what) \"\(text)\" is not UTF-8 once decoded — percent-encode UTF-8 bytes")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
