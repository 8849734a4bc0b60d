import CameraCapture
import CameraCore

/// The gain `--gain G` (analogue gain) or `--iso N` asked for, kept as given, so that it is read
/// against the camera's own base ISO and an error speaks in the flag and unit the user chose.
enum GainFlag: Equatable {
    case gain(Double)
    case iso(Double)

    /// The analogue gain on a camera with `capabilities`; outside its range, an error naming the
    /// flag given, with the range in that flag's unit (`--iso 0 is outside the supported range 50…3200`).
    func analogueGain(on capabilities: DeviceCapabilities) throws(ValueOutOfRangeError) -> Double {
        let range = capabilities.analogueGain
        switch self {
        case .gain(let gain):
            return try ValueOutOfRangeError.check(gain, in: range, setting: "--gain")
        case .iso(let iso):
            let base = capabilities.baseISO
            return try ValueOutOfRangeError.check(iso, in: (range.lowerBound * base)...(range.upperBound * base), setting: "--iso") / base
        }
    }
}
