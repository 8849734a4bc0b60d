/// One figure of `camerasun bench`, beside its peer measured in the same run where one exists.
/// `ratio` = peerValue / ours for times (above 1: CameraSun is faster).
public struct Benchmark: Encodable, Sendable, Equatable {
    public let name: String
    public let unit: String
    public let ours: Double
    public let peer: String?
    public let peerValue: Double?
    public let ratio: Double?

    public init(name: String, unit: String, ours: Double, peer: String?, peerValue: Double?, ratio: Double?) {
        self.name = name
        self.unit = unit
        self.ours = ours
        self.peer = peer
        self.peerValue = peerValue
        self.ratio = ratio
    }

    /// A figure no peer measures (BENCHMARKS.md says why for each).
    init(name: String, unit: String, ours: Double) {
        self.init(name: name, unit: unit, ours: ours, peer: nil, peerValue: nil, ratio: nil)
    }

    enum CodingKeys: String, CodingKey {
        case name, unit, ours, peer, peerValue, ratio
    }

    // Encodes absent peers as explicit nulls, as docs/CLI.md's shape has every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(ours, forKey: .ours)
        try container.encode(peer, forKey: .peer)
        try container.encode(peerValue, forKey: .peerValue)
        try container.encode(ratio, forKey: .ratio)
    }
}
