extension KeyedDecodingContainer {
    /// The string at `key` as one of `T`'s cases, by raw value. Another string is a decoding error
    /// that names it and lists the cases, which `decodeJSON` answers as a 400 such as
    /// `mode: "sppot" is not average, centre, spot, matrix or sun`.
    public func decodeChoice<T: CaseIterable & RawRepresentable>(_ type: T.Type, forKey key: Key) throws -> T where T.RawValue == String {
        let name = try decode(String.self, forKey: key)
        guard let value = T(rawValue: name) else {
            let names = T.allCases.map { $0.rawValue }
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(name)\" is not \(list)")
        }
        return value
    }

    /// `decodeChoice` for an optional field: nil when `key` is absent.
    public func decodeChoiceIfPresent<T: CaseIterable & RawRepresentable>(_ type: T.Type, forKey key: Key) throws -> T?
    where T.RawValue == String {
        contains(key) ? try decodeChoice(type, forKey: key) : nil
    }
}
