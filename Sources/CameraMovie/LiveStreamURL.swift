/// Where a live stream goes: `rtmp://HOST[:PORT]/APP/KEY` (or `rtmps://`), as streaming servers
/// and CDN ingests give it. The key is a secret: `masked` is the form for messages and logs.
public struct LiveStreamURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, for the connection.
    public let url: String
    public let scheme: String
    public let host: String
    public let port: Int
    public let app: String
    public let key: String

    /// The schemes libavformat can publish FLV to.
    public static let schemes = ["rtmp", "rtmps"]

    /// Parses `text`, refusing by name a URL that is not `rtmp[s]://HOST[:PORT]/APP/KEY`.
    public init(_ text: String) throws(MovieError) {
        let usage = "give rtmp://HOST[:PORT]/APP/KEY, e.g. rtmp://127.0.0.1/live/camera1"
        guard let separator = text.range(of: "://") else { throw MovieError("\(text) is not a URL — \(usage)") }
        scheme = text[..<separator.lowerBound].lowercased()
        guard Self.schemes.contains(scheme) else {
            throw MovieError("\(Self.masking(text)): the scheme \(scheme) is not supported, only \(Self.schemes.joined(separator: " and ")) — \(usage)")
        }
        let parts = text[separator.upperBound...].split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw MovieError("\(Self.masking(text)) lacks a host, an app or a stream key — \(usage)")
        }
        // A user and password (`rtmp://user:password@HOST/…`) go to the server as given, masked in messages.
        let authority = parts[0].split(separator: "@").last.map { $0.split(separator: ":", omittingEmptySubsequences: false) } ?? []
        guard (1...2).contains(authority.count), !authority[0].isEmpty else { throw MovieError("\(Self.masking(text)): bad host — \(usage)") }
        host = String(authority[0])
        if authority.count == 2 {
            guard let port = Int(authority[1]), (1...65_535).contains(port) else {
                throw MovieError("\(Self.masking(text)): port \(authority[1]) is not a number from 1 to 65535 — \(usage)")
            }
            self.port = port
        } else {
            port = scheme == "rtmps" ? 443 : 1935
        }
        (url, app, key) = (text, String(parts[1]), String(parts[2]))
    }

    /// The URL with its stream key hidden.
    public var masked: String { Self.masking(url) }

    public var description: String { masked }

    /// `text` with its password and what follows its app (the stream key) replaced by "****".
    private static func masking(_ text: String) -> String {
        guard let separator = text.range(of: "://") else { return text }
        var parts = text[separator.upperBound...].split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if let at = parts[0].lastIndex(of: "@") {
            let user = parts[0][..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
            parts[0] = "\(user):****\(parts[0][at...])"
        }
        if parts.count == 3 { parts[2] = "****" }
        return String(text[..<separator.upperBound]) + parts.joined(separator: "/")
    }
}
