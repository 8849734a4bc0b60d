import HTTPServer

/// `POST /api/record`: `{"action":"start","maxDuration":s?,"watermark":text?}` starts a take (a
/// positive `maxDuration` ends it by itself; `watermark` is text to burn into it) and
/// `{"action":"stop"}` ends it.
public enum RecordingCommand: Equatable, Sendable, Decodable {
    case start(maxDuration: Double?, watermark: String?)
    case stop

    private enum CodingKeys: String, CodingKey {
        case action, maxDuration, watermark
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeChoice(StartStopAction.self, forKey: .action) {
        case .start:
            let maxDuration = try container.decodeIfPresent(Double.self, forKey: .maxDuration)
            if let maxDuration, !(maxDuration > 0 && maxDuration.isFinite) {
                throw DecodingError.dataCorruptedError(forKey: .maxDuration, in: container,
                                                       debugDescription: "\(maxDuration) s — give a positive number of seconds")
            }
            self = .start(maxDuration: maxDuration, watermark: try container.decodeIfPresent(String.self, forKey: .watermark))
        case .stop:
            guard !container.contains(.maxDuration), !container.contains(.watermark) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\"maxDuration\" and \"watermark\" go with \"start\" only"))
            }
            self = .stop
        }
    }
}
