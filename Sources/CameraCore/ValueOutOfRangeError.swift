/// A setting outside what the device supports. The message names the setting, the value and the
/// valid range, so the user can correct it (AVFoundation raises an exception here; we throw).
public struct ValueOutOfRangeError: Error, Equatable, CustomStringConvertible {
    public let setting: String
    public let value: Double
    public let range: ClosedRange<Double>
    public let unit: String

    public init(setting: String, value: Double, range: ClosedRange<Double>, unit: String = "") {
        self.setting = setting
        self.value = value
        self.range = range
        self.unit = unit
    }

    /// Returns `value` when it lies in `range`, else throws naming `setting`.
    public static func check(_ value: Double, in range: ClosedRange<Double>, setting: String, unit: String = "") throws(ValueOutOfRangeError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw ValueOutOfRangeError(setting: setting, value: value, range: range, unit: unit)
        }
        return value
    }

    public var description: String {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        return "\(setting) \(format(value))\(suffix) is outside the supported range \(format(range.lowerBound))…\(format(range.upperBound))\(suffix) — choose a value in that range"
    }

    private func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e16 { return String(Int(number)) }
        if abs(number) < 0.01 || abs(number) >= 1e16, number != 0 { return String(number) }
        return String((number * 10000).rounded() / 10000)
    }
}
