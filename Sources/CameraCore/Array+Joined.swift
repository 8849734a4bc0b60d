extension Array where Element == String {
    /// The names joined as a person lists choices: "a, b or c" (`separator` ", ", `last` " or "),
    /// the single name alone, "" for none.
    public func joined(separator: String, last: String) -> String {
        guard count > 1 else { return joined() }
        return dropLast().joined(separator: separator) + last + self[endIndex - 1]
    }
}
