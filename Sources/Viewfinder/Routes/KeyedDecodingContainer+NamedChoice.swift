import HTTPServer

extension KeyedDecodingContainer {
    /// The string at `key` as the value it names in `choices`: the API names of a library enum whose
    /// cases carry values (focus and white-balance modes), where `decodeChoice` takes raw-value
    /// enums. Another string is a decoding error that names it and lists the names, which
    /// `decodeJSON` answers as a 400 such as `mode: "macro" is not auto, continuous or locked`.
    func decodeChoice<T>(among choices: [(name: String, value: T)], forKey key: Key) throws -> T {
        let name = try decode(String.self, forKey: key)
        guard let value = choices.first(where: { $0.name == name })?.value else {
            let names = choices.map(\.name)
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(name)\" is not \(list)")
        }
        return value
    }
}
