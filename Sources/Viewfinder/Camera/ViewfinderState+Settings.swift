import CameraCapture
import CameraCore
import CameraExposure

extension ViewfinderState {
    /// `"flicker":{"mode":"auto","detected":50}`: the anti-flicker mode as `/api/flicker` takes it
    /// (off, 50, 60, auto), and the mains frequency whose flicker is seen in the frames, in the same
    /// units as the mode and the advice — 50 or 60 — or null when none is seen. On auto, a sighting
    /// makes exposures flicker-safe, and stays reported while they are.
    public struct Flicker: Sendable, Encodable, Equatable {
        public let mode: String
        public let detected: Double?

        init(mode: FlickerMode, detected: Double?) {
            self.mode = mode.rawValue
            self.detected = detected
        }

        private enum CodingKeys: String, CodingKey {
            case mode, detected
        }

        /// `detected` is null, not absent, when no flicker is seen.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mode, forKey: .mode)
            try container.encode(detected, forKey: .detected)
        }
    }

    /// `"whiteBalance":{"mode":"auto","gains":{"red":1.6,"green":1,"blue":2.1},"temperature":4100,"tint":1.2}`:
    /// the mode (auto, locked, temperature or gains), the gains the newest frame was made with,
    /// and the light they neutralise in kelvin and tint (thousandths of Δuv) — as set in
    /// temperature mode.
    public struct WhiteBalance: Sendable, Encodable, Equatable {
        public let mode: String
        public let gains: Gains
        public let temperature: Double
        public let tint: Double

        public struct Gains: Sendable, Encodable, Equatable {
            public let red: Double
            public let green: Double
            public let blue: Double
        }

        init(mode: WhiteBalanceMode, gains: WhiteBalanceGains) {
            self.mode = mode.name
            self.gains = Gains(red: gains.red, green: gains.green, blue: gains.blue)
            let light: ColorTemperature = if case .manualTemperature(let set) = mode { set } else {
                gains.colorTemperature ?? .reference
            }
            temperature = light.kelvin.rounded()
            tint = (light.tint * 10).rounded() / 10
        }
    }

    /// `"focus":{"mode":"continuous","lensPosition":0.62}`: the mode as `/api/focus` takes it (auto,
    /// continuous, locked) or manual after `{"lensPosition":p}`, and the lens position of the
    /// newest frame (0 nearest, 1 infinity).
    public struct Focus: Sendable, Encodable, Equatable {
        public let mode: String
        public let lensPosition: Double

        init(mode: FocusMode, lensPosition: Double) {
            self.mode = mode.name
            self.lensPosition = lensPosition
        }
    }
}
