import CameraMovie
import HTTPServer

/// `POST /api/live`: `{"action":"start","url":"rtmp://HOST[:PORT]/APP/KEY","bitrate":kbps?}`
/// pushes the main camera live (2500 kb/s unless `bitrate` says, a whole number in
/// `LiveEncoder.kilobitRange`) and
/// `{"action":"stop"}` ends the stream.
public enum LiveCommand: Equatable, Sendable, Decodable {
    case start(url: String, bitrateKbps: Int?)
    case stop

    private enum CodingKeys: String, CodingKey {
        case action, url, bitrate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeChoice(StartStopAction.self, forKey: .action) {
        case .start:
            let bitrate = try container.decodeIfPresent(Double.self, forKey: .bitrate).map { kilobits in
                let range = LiveEncoder.kilobitRange
                guard kilobits.rounded() == kilobits, kilobits >= Double(range.lowerBound), kilobits <= Double(range.upperBound) else {
                    let shown = kilobits.rounded() == kilobits && abs(kilobits) < 1e15 ? "\(Int(kilobits))" : "\(kilobits)"
                    throw DecodingError.dataCorruptedError(forKey: .bitrate, in: container, debugDescription:
                        "\(shown) kb/s — give a whole number of kilobits a second in \(range.lowerBound)…\(range.upperBound)")
                }
                return Int(kilobits)
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
