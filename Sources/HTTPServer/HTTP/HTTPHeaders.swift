/// Header fields in the order they were added, with names matched case-insensitively as HTTP
/// requires (`content-type` finds `Content-Type`). A name may repeat: `values(for:)` gives each,
/// the subscript their comma-joined value.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Field = (name: String, value: String)

    private var fields: [Field] = []

    public init() {}

    public init(_ fields: some Sequence<Field>) {
        self.fields = Array(fields)
    }

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The values of every field named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// The value of `name`: its fields' values joined with ", " as HTTP allows, nil when absent.
    /// Setting replaces every field of that name (where the first was; at the end when new), nil removes them.
    public subscript(name: String) -> String? {
        get {
            let values = values(for: name)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        set {
            // Removing fields at or after the first match leaves its index valid.
            let position = fields.firstIndex { Self.same($0.name, name) } ?? fields.endIndex
            fields.removeAll { Self.same($0.name, name) }
            if let newValue { fields.insert((name, newValue), at: position) }
        }
    }

    /// Adds a field after the others, keeping any of the same name (e.g. a second `Set-Cookie`).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// `other`'s fields replace those of the same names here; the rest are added at the end.
    public mutating func merge(_ other: HTTPHeaders) {
        for name in other.names { self[name] = nil }
        fields += other.fields
    }

    /// The distinct names, in order of first appearance, as first spelled.
    public var names: [String] {
        var seen: [String] = []
        for field in fields where !seen.contains(where: { Self.same($0, field.name) }) { seen.append(field.name) }
        return seen
    }

    public var count: Int { fields.count }

    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    private static func same(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count && first.lowercased() == second.lowercased()
    }
}
