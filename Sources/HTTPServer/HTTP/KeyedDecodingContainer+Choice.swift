import CameraCore

extension KeyedDecodingContainer {
    /// The string at `key` as the value it names in `choices` (the API names of an enum, also one
    /// whose cases carry values). Another string is a decoding error that names it and lists the
    /// names, which `decodeJSON` answers as a 400 such as `mode: "sppot" is not average, centre,
    /// spot, matrix or sun`.
    public func decodeChoice<T>(among choices: [(name: String, value: T)], forKey key: Key) throws -> T {
        let name = try decode(String.self, forKey: key)
        guard let value = choices.first(where: { $0.name == name })?.value else {
            let list = choices.map(\.name).joined(separator: ", ", last: " or ")
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(name)\" is not \(list)")
        }
        return value
    }

    /// `decodeChoice(among:)` for a raw-value enum: its cases by raw value.
    public func decodeChoice<T: CaseIterable & RawRepresentable>(_ type: T.Type, forKey key: Key) throws -> T where T.RawValue == String {
        try decodeChoice(among: T.allCases.map { ($0.rawValue, $0) }, forKey: key)
    }

    /// `decodeChoice` for an optional field: nil when `key` is absent.
    public func decodeChoiceIfPresent<T: CaseIterable & RawRepresentable>(_ type: T.Type, forKey key: Key) throws -> T?
    where T.RawValue == String {
        contains(key) ? try decodeChoice(type, forKey: key) : nil
    }
}
