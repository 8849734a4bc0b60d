import CameraCore
import CameraExposure

// The bodies of the camera-setting requests (docs/CLI.md, "Viewfinder HTTP API"), decoded straight into
// the library's modes. Ranges that depend on the device (lens positions, the torch) are checked
// by the camera side; the temperature and gain ranges by the device's validation.

/// `POST /api/flicker`: `{"mode":"off"|"50"|"60"|"auto"}`, `FlickerMode`'s raw values.
public struct FlickerCommand: Equatable, Sendable, Decodable {
    public var mode: FlickerMode

    private enum CodingKeys: String, CodingKey {
        case mode
    }

    public init(mode: FlickerMode) {
        self.mode = mode
    }

    public init(from decoder: any Decoder) throws {
        mode = try decoder.container(keyedBy: CodingKeys.self).decodeChoice(FlickerMode.self, forKey: .mode)
    }
}

/// `POST /api/whitebalance`: `{"mode":"auto"|"locked"}`, `{"temperature":K,"tint":t}` (tint
/// optional, 0 on the Planckian locus) or `{"gains":{"red":r,"blue":b}}` (green is 1).
public struct WhiteBalanceCommand: Equatable, Sendable, Decodable {
    public var mode: WhiteBalanceMode

    private enum CodingKeys: String, CodingKey {
        case mode, temperature, tint, gains
    }

    private struct Gains: Decodable {
        let red, blue: Double
    }

    public init(mode: WhiteBalanceMode) {
        self.mode = mode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let forms = [CodingKeys.mode, .temperature, .gains].filter(container.contains)
        guard forms.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "give exactly one of \"mode\", \"temperature\" or \"gains\" (found \(forms.count))"))
        }
        switch forms[0] {
        case .mode:
            mode = try container.decodeChoice(among: WhiteBalanceMode.named, forKey: .mode)
        case .temperature:
            let kelvin = try container.decode(Double.self, forKey: .temperature)
            mode = .manualTemperature(ColorTemperature(kelvin, tint: try container.decodeIfPresent(Double.self, forKey: .tint) ?? 0))
        default:
            let gains = try container.decode(Gains.self, forKey: .gains)
            mode = .manualGains(WhiteBalanceGains(red: gains.red, green: 1, blue: gains.blue))
        }
    }
}

/// `POST /api/focus`: `{"mode":"auto"|"continuous"|"locked"}` (auto searches once) or
/// `{"lensPosition":p}`, 0 the nearest focus, 1 infinity.
public struct FocusCommand: Equatable, Sendable, Decodable {
    public var mode: FocusMode

    private enum CodingKeys: String, CodingKey {
        case mode, lensPosition
    }

    public init(mode: FocusMode) {
        self.mode = mode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.mode), container.contains(.lensPosition)) {
        case (true, false): mode = try container.decodeChoice(among: FocusMode.named, forKey: .mode)
        case (false, true): mode = .manual(lensPosition: try container.decode(Double.self, forKey: .lensPosition))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "give exactly one of \"mode\" or \"lensPosition\""))
        }
    }
}

/// `POST /api/torch`: `{"on":true,"level":l}` (level 0…1, full when absent) or `{"on":false}`.
public struct TorchCommand: Equatable, Sendable, Decodable {
    /// 0 is off.
    public var level: Double

    private enum CodingKeys: String, CodingKey {
        case on, level
    }

    public init(level: Double) {
        self.level = level
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let level = try container.decodeIfPresent(Double.self, forKey: .level)
        if try container.decode(Bool.self, forKey: .on) {
            self.level = level ?? 1
        } else {
            guard level == nil else {
                throw DecodingError.dataCorruptedError(forKey: .level, in: container, debugDescription: "a level goes with \"on\":true only")
            }
            self.level = 0
        }
    }
}

/// `POST /api/raw`: `{"on":bool}`, whether the shutter's photos are RAW + JPEG pairs.
public struct RawCommand: Equatable, Sendable, Decodable {
    public var on: Bool

    public init(on: Bool) {
        self.on = on
    }
}

/// `POST /api/hdr`: `{"on":bool}`, local tone mapping (on) or the plain global curve (off).
public struct HDRCommand: Equatable, Sendable, Decodable {
    public var on: Bool

    public init(on: Bool) {
        self.on = on
    }
}
