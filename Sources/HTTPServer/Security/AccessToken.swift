/// The secret that every request but the page must present (as `Authorization: Bearer …` or the
/// page's cookie) when the server is reachable by others (`AccessPolicy`).
public struct AccessToken: Equatable, Sendable, CustomStringConvertible {
    public let value: String

    /// A token given by the user (e.g. `--token`). It must be 8 to 256 characters that can travel in
    /// a header and a cookie: printable ASCII without spaces, quotes, commas, semicolons or backslashes.
    public init(_ value: String) throws(HTTPServerError) {
        guard (8...256).contains(value.utf8.count) else {
            throw HTTPServerError("token of \(value.utf8.count) characters is too \(value.utf8.count < 8 ? "short" : "long") — use 8 to 256 characters, or omit it to have one generated")
        }
        if let bad = value.unicodeScalars.first(where: { !Self.isAllowed($0) }) {
            throw HTTPServerError("token contains \"\(bad.escaped(asASCII: true))\" — use printable ASCII without spaces, quotes, commas, semicolons or backslashes")
        }
        self.value = value
    }

    private init(unchecked value: String) {
        self.value = value
    }

    /// A new token of 128 random bits from the system's secure generator, as 32 hex digits.
    public static func generate() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        let hex = words.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return AccessToken(unchecked: hex.joined())
    }

    /// Whether `candidate` is this token, compared in time that does not depend on where they differ.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        let expected = Array(value.utf8)
        let given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// The token is a secret: descriptions do not show it.
    public var description: String { "AccessToken(\(value.count) characters)" }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value < 0x7F && !"\"\\,;".unicodeScalars.contains(scalar)
    }
}
