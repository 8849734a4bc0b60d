import HTTPServer

/// `POST /api/live`: `{"action":"start","url":"rtmp://HOST[:PORT]/APP/KEY","bitrate":kbps?}`
/// pushes the main camera live (2500 kb/s unless `bitrate` says, at least 100) and
/// `{"action":"stop"}` ends the stream.
public enum LiveCommand: Equatable, Sendable, Decodable {
    case start(url: String, bitrateKbps: Int?)
    case stop

    /// The lowest bitrate the live encoder takes, kb/s.
    static let minimumBitrate = 100

    private enum CodingKeys: String, CodingKey {
        case action, url, bitrate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeChoice(StartStopAction.self, forKey: .action) {
        case .start:
            let bitrate = try container.decodeIfPresent(Int.self, forKey: .bitrate)
            if let bitrate, bitrate < Self.minimumBitrate {
                throw DecodingError.dataCorruptedError(forKey: .bitrate, in: container,
                                                       debugDescription: "\(bitrate) kb/s — give at least \(Self.minimumBitrate)")
            }
            self = .start(url: try container.decode(String.self, forKey: .url), bitrateKbps: bitrate)
        case .stop:
            guard !container.contains(.url), !container.contains(.bitrate) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\"url\" and \"bitrate\" go with \"start\" only"))
            }
            self = .stop
        }
    }
}
