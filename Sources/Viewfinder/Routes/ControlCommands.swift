import CameraCapture
import CameraCore
import CameraMetering
import CameraStills

// The bodies of the `/api/*` control requests (docs/CLI.md, "Viewfinder HTTP API"), decoded and checked
// for shape here so that the camera side receives typed commands. Value ranges (EV, zoom, …) are the
// device's to check: it throws `ValueOutOfRangeError`, which the router answers with 400.

/// `POST /api/exposure`: `{"bias":EV}`, `{"mode":"auto"|"locked"}`,
/// `{"mode":"custom","exposureTime":s,"gain":g}` or `{"reset":true}`.
public enum ExposureCommand: Equatable, Sendable, Decodable {
    case bias(Double)
    case auto
    case locked
    case custom(exposureTime: Double, gain: Double)
    /// Back to continuous auto exposure with no bias.
    case reset

    private enum CodingKeys: String, CodingKey {
        case bias, mode, exposureTime, gain, reset
    }

    private enum Mode: String, CaseIterable {
        case auto, locked, custom
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let forms = [CodingKeys.bias, .mode, .reset].filter(container.contains)
        guard forms.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "give exactly one of \"bias\", \"mode\" or \"reset\" (found \(forms.count))"))
        }
        switch forms[0] {
        case .bias:
            self = .bias(try container.decode(Double.self, forKey: .bias))
        case .reset:
            guard try container.decode(Bool.self, forKey: .reset) else {
                throw DecodingError.dataCorruptedError(forKey: .reset, in: container, debugDescription: "only true resets")
            }
            self = .reset
        default:
            switch try container.decodeChoice(Mode.self, forKey: .mode) {
            case .auto: self = .auto
            case .locked: self = .locked
            case .custom:
                self = .custom(
                    exposureTime: try container.decode(Double.self, forKey: .exposureTime),
                    gain: try container.decode(Double.self, forKey: .gain))
            }
        }
    }
}

/// `POST /api/shadows`: `{"shadows":s}`, the shadows control beside the EV bias, −2…2 (the device
/// checks the range): positive lifts the shadows towards the subject, negative deepens them.
public struct ShadowsCommand: Equatable, Sendable, Decodable {
    public var shadows: Double

    public init(shadows: Double) {
        self.shadows = shadows
    }
}

/// `POST /api/meter`: a tap in a view (`{"view":{"x","y","width","height"},"gravity":…}`, the tap
/// point and the view's size in view units) or a device point (`{"point":{"x","y"}}`, normalised).
public enum MeterCommand: Equatable, Sendable, Decodable {
    case viewTap(x: Double, y: Double, viewWidth: Double, viewHeight: Double, gravity: VideoGravity)
    case devicePoint(NormalizedPoint)

    private enum CodingKeys: String, CodingKey {
        case view, gravity, point
    }

    private struct ViewTap: Decodable {
        let x, y, width, height: Double
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.view), container.contains(.point)) {
        case (true, false):
            let tap = try container.decode(ViewTap.self, forKey: .view)
            guard tap.width > 0, tap.height > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .view, in: container, debugDescription: "view size \(tap.width)x\(tap.height) must be positive")
            }
            self = .viewTap(
                x: tap.x, y: tap.y, viewWidth: tap.width, viewHeight: tap.height,
                gravity: try container.decodeChoiceIfPresent(VideoGravity.self, forKey: .gravity) ?? .fill)
        case (false, true):
            self = .devicePoint(try container.decode(NormalizedPoint.self, forKey: .point))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "give exactly one of \"view\" or \"point\""))
        }
    }
}

/// `POST /api/lock`: the locks to change; absent ones stay as they are.
public struct LockCommand: Equatable, Sendable, Decodable {
    public var ae: Bool?
    public var af: Bool?
    public var awb: Bool?

    public init(ae: Bool? = nil, af: Bool? = nil, awb: Bool? = nil) {
        self.ae = ae
        self.af = af
        self.awb = awb
    }
}

/// `POST /api/zoom`: `{"factor":f}` at once, or `{"rampTo":f,"rate":r}` (r in powers of two per second).
public enum ZoomCommand: Equatable, Sendable, Decodable {
    case factor(Double)
    case ramp(to: Double, rate: Double)

    private enum CodingKeys: String, CodingKey {
        case factor, rampTo, rate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.factor), container.contains(.rampTo)) {
        case (true, false): self = .factor(try container.decode(Double.self, forKey: .factor))
        case (false, true):
            self = .ramp(to: try container.decode(Double.self, forKey: .rampTo), rate: try container.decode(Double.self, forKey: .rate))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "give exactly one of \"factor\" or \"rampTo\""))
        }
    }
}

/// `POST /api/metering`: `{"mode":"average"|"centre"|"spot"|"matrix"|"sun"}`, named as
/// `MeteringMode.name` names them; spot meters around the tap point when there is one.
public struct MeteringCommand: Equatable, Sendable, Decodable {
    public var mode: MeteringMode

    private enum CodingKeys: String, CodingKey {
        case mode
    }

    public init(mode: MeteringMode) {
        self.mode = mode
    }

    public init(from decoder: any Decoder) throws {
        mode = try decoder.container(keyedBy: CodingKeys.self).decodeChoice(among: MeteringMode.named, forKey: .mode)
    }
}

/// `POST /api/photo`: `{}` or `{"flash":"off"|"on"|"auto", "raw":bool, "bracket":[EV,…]}`; an empty
/// body is flash off, the RAW toggle's choice, one frame.
public struct PhotoCommand: Equatable, Sendable, Decodable {
    public var flash: PhotoSettings.FlashMode
    /// A RAW + JPEG pair (true) or a JPEG (false); nil follows the RAW toggle (`/api/raw`).
    public var raw: Bool?
    /// A bracketed photo's EV offsets (2…5, e.g. [-2, 0, 2]), merged into one; nil takes one frame.
    public var bracket: [Double]?

    private enum CodingKeys: String, CodingKey {
        case flash, raw, bracket
    }

    public init(flash: PhotoSettings.FlashMode = .off, raw: Bool? = nil, bracket: [Double]? = nil) {
        self.flash = flash
        self.raw = raw
        self.bracket = bracket
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        flash = try container.decodeChoiceIfPresent(PhotoSettings.FlashMode.self, forKey: .flash) ?? .off
        raw = try container.decodeIfPresent(Bool.self, forKey: .raw)
        bracket = try container.decodeIfPresent([Double].self, forKey: .bracket)
        if let bracket {
            do {
                try PhotoSettings.checkBracket(bracket)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .bracket, in: container, debugDescription: error.description)
            }
            // A bracket is taken without the flash: asking for both is the client's mistake.
            guard flash == .off else {
                throw DecodingError.dataCorruptedError(forKey: .flash, in: container, debugDescription:
                    "\"\(flash.rawValue)\" with a bracket — a bracketed photo is taken without the flash; leave out one of them")
            }
        }
    }
}

/// `POST /api/camera`: `{"position":"back"|"front"}`, the camera to make the main one.
public struct CameraCommand: Equatable, Sendable, Decodable {
    public var position: DevicePosition

    private enum CodingKeys: String, CodingKey {
        case position
    }

    public init(position: DevicePosition) {
        self.position = position
    }

    public init(from decoder: any Decoder) throws {
        position = try decoder.container(keyedBy: CodingKeys.self)
            .decodeChoice(among: [("back", DevicePosition.back), ("front", .front)], forKey: .position)
    }
}
