import HTTPServer

/// The exposure aids the server can draw into preview frames (`/stream?overlay=zebra,sun`), since
/// only it has the pixels and the frame's analysis.
public struct PreviewOverlays: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Diagonal black-and-white stripes over pixels whose luma is at least 0.95 of full scale.
    public static let zebra = PreviewOverlays(rawValue: 1 << 0)
    /// The sun and other light sources that sun-aware metering leaves out, tinted orange.
    public static let sun = PreviewOverlays(rawValue: 1 << 1)

    /// Every overlay with its name in the query, in the order the page lists them.
    public static let named: [(name: String, overlay: PreviewOverlays)] = [("zebra", .zebra), ("sun", .sun)]

    /// Every combination, the empty one included.
    public static let combinations: [PreviewOverlays] = (0..<(1 << named.count)).map { PreviewOverlays(rawValue: $0) }

    /// Parses the `overlay` query parameter: names separated by commas (empty or absent: none).
    /// An unknown name is a 400 that lists the known ones.
    public init(query: String?) throws(HTTPError) {
        self = []
        for name in (query ?? "").split(separator: ",", omittingEmptySubsequences: true) {
            guard let overlay = Self.named.first(where: { $0.name == name })?.overlay else {
                let known = Self.named.map(\.name).joined(separator: ", ")
                throw .badRequest("overlay \"\(name)\" is unknown — use \(known), or both separated by a comma")
            }
            insert(overlay)
        }
    }

    /// The names, comma-separated (e.g. `zebra,sun`); empty for none.
    public var description: String {
        Self.named.filter { contains($0.overlay) }.map(\.name).joined(separator: ",")
    }
}
