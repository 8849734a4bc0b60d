import CameraExposure
import CameraMetering

// The names the `/api/*` bodies and `/state` give the library's modes whose cases carry values, so
// that the routes parse straight into the library's enums and `/state` shows what they take.

extension MeteringMode {
    /// The modes `/api/metering` takes, by `name`: average, centre, spot (at the tap point), matrix, sun.
    static let named: [(name: String, value: MeteringMode)] = [
        MeteringMode.average, .centerWeighted, .spot(.center, radius: MeteringMode.defaultSpotRadius), .matrix, .sunAware,
    ].map { ($0.name, $0) }
}

extension FocusMode {
    /// The modes `/api/focus` takes by `{"mode":…}`: auto searches once, then holds the lens.
    static let named: [(name: String, value: FocusMode)] = [("auto", .autoOnce), ("continuous", .continuous), ("locked", .locked)]

    /// The name `/state` shows: one of `named`, or manual for a lens position set by `{"lensPosition":p}`.
    var name: String { Self.named.first { $0.value == self }?.name ?? "manual" }
}

extension WhiteBalanceMode {
    /// The modes `/api/whitebalance` takes by `{"mode":…}`; a temperature or gains set the others.
    static let named: [(name: String, value: WhiteBalanceMode)] = [("auto", .auto), ("locked", .locked)]

    /// The name `/state` shows: auto, locked, temperature or gains.
    var name: String {
        if let named = Self.named.first(where: { $0.value == self }) { return named.name }
        if case .manualTemperature = self { return "temperature" }
        return "gains"
    }
}
