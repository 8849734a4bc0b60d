/// One line of a verification or repair report: what was found or done, to which file and asset,
/// and the detail. Encodes every field, `assetID` as null when there is none, so the JSON keys
/// never vary.
public struct ReportEntry<Kind>: Sendable, Hashable, Codable where Kind: Sendable & Hashable & Codable {
    public let kind: Kind
    /// The file's path relative to the library directory.
    public let path: String
    /// The catalogued asset concerned, nil for files without a row.
    public let assetID: String?
    /// What exactly was seen or done, e.g. the two hashes of a mismatch.
    public let detail: String

    public init(kind: Kind, path: String, assetID: String?, detail: String) {
        self.kind = kind
        self.path = path
        self.assetID = assetID
        self.detail = detail
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encode(assetID, forKey: .assetID)
        try container.encode(detail, forKey: .detail)
    }
}
