import CameraCapture
import CameraCore
import CameraExposure
import CameraISP
import CameraStills

/// The arguments of one command, consumed as the command reads its flags; whatever is left is
/// an error, so a mistyped flag is never silently ignored.
public struct ArgumentList {
    private var remaining: [String]
    let command: String

    public init(_ arguments: [String], command: String) {
        remaining = arguments
        self.command = command
    }

    /// True (and consumed) when `--name` is present.
    public mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: "--\(name)") else { return false }
        remaining.remove(at: index)
        return true
    }

    /// `--name` / `--no-name`: true, false, or nil when neither is given.
    mutating func toggle(_ name: String) -> Bool? {
        if flag(name) { return true }
        if flag("no-\(name)") { return false }
        return nil
    }

    /// The value of `--name VALUE` or `--name=VALUE`, consumed. With `boundary`, only an option
    /// before the next `--boundary` counts: the options of one group, as `--subject` belongs to
    /// the `--scene-file` before it.
    mutating func option(_ name: String, before boundary: String? = nil) throws(CLIError) -> String? {
        let end = boundary.flatMap { boundary in
            remaining.firstIndex { $0 == "--\(boundary)" || $0.hasPrefix("--\(boundary)=") }
        } ?? remaining.endIndex
        if let value = inlineValue(name, before: end) { return value }
        guard let index = remaining[..<end].firstIndex(of: "--\(name)") else { return nil }
        guard hasValue(after: index) else {
            throw .usage("--\(name) needs a value — see 'camerasun help \(command)'")
        }
        return takeValue(after: index)
    }

    /// `--name`, `--name VALUE` or `--name=VALUE`, consumed: nil when absent, "" when given
    /// without a value (followed by another flag or by nothing), else the value.
    mutating func optionalValue(_ name: String) -> String? {
        if let value = inlineValue(name, before: remaining.endIndex) { return value }
        guard let index = remaining.firstIndex(of: "--\(name)") else { return nil }
        guard hasValue(after: index) else {
            remaining.remove(at: index)
            return ""
        }
        return takeValue(after: index)
    }

    /// The value of the first `--name=VALUE` before `end`, consumed.
    private mutating func inlineValue(_ name: String, before end: Int) -> String? {
        guard let index = remaining[..<end].firstIndex(where: { $0.hasPrefix("--\(name)=") }) else { return nil }
        return String(remaining.remove(at: index).dropFirst(name.count + 3))
    }

    /// True when the argument after `index` is a value, not another flag or the end.
    private func hasValue(after index: Int) -> Bool {
        index + 1 < remaining.count && !remaining[index + 1].hasPrefix("--")
    }

    /// The value after the flag at `index`, the flag and the value consumed.
    private mutating func takeValue(after index: Int) -> String {
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// `--name VALUE` parsed by `parse`, which returns nil for a bad value; `expected` describes
    /// a good one for the error message.
    mutating func option<T>(_ name: String, expected: String, before boundary: String? = nil,
                            _ parse: (String) -> T?) throws(CLIError) -> T? {
        guard let text = try option(name, before: boundary) else { return nil }
        guard let value = parse(text) else {
            throw .usage("--\(name) '\(text)' is not \(expected) — see 'camerasun help \(command)'")
        }
        return value
    }

    /// `--name N`: a number in `range`, nil when absent. A numeric flag whose range the command
    /// knows is read here, so that no value reaches arithmetic that cannot hold it (a conversion to
    /// a whole number, a `Duration`, a byte count traps on overflow): text that is not a number is
    /// a usage error, and so is nan, infinity or a number outside `range`, naming the range (in
    /// `unit`). `NumericFlagTests` feeds every documented numeric flag the values that trap.
    mutating func number(_ name: String, in range: ClosedRange<Double>, unit: String = "",
                         before boundary: String? = nil) throws(CLIError) -> Double? {
        guard let value = try option(name, expected: "a number", before: boundary, { Double($0) }) else { return nil }
        return try Self.check(value, in: range, flag: name, unit: unit)
    }

    /// `--name N`: a whole number in `range`, nil when absent; as `number`, anything else is a
    /// usage error naming the range.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>, unit: String = "") throws(CLIError) -> Int? {
        guard let value = try number(name, in: Double(range.lowerBound)...Double(range.upperBound), unit: unit) else { return nil }
        guard value == value.rounded() else {
            throw .usage("--\(name) \(value) is not a whole number — see 'camerasun help \(command)'")
        }
        return Int(value)
    }

    /// `--name N`: any finite number, nil when absent; for the flags whose range is checked where
    /// it is known (a camera's gain and EV range, a scene's intent) before any arithmetic.
    mutating func double(_ name: String, before boundary: String? = nil) throws(CLIError) -> Double? {
        try option(name, expected: "a number", before: boundary) { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    /// `value` when it lies in `range`, else a usage error naming the flag, the value and the range.
    static func check(_ value: Double, in range: ClosedRange<Double>, flag: String, unit: String = "") throws(CLIError) -> Double {
        do {
            return try ValueOutOfRangeError.check(value, in: range, setting: "--\(flag)", unit: unit)
        } catch {
            throw .usage("\(error)")
        }
    }

    /// `--hdr on|off`: local tone mapping, or the plain global curve; nil when absent.
    mutating func hdr() throws(CLIError) -> ToneMapping? {
        try option("hdr", expected: "on or off") { ["on": ToneMapping.local, "off": .global][$0] }
    }

    /// `--shadows N`: the shadows control, a number in `SunAwareExposure.shadowsRange` (−2…2); nil
    /// when absent. Outside the range is a usage error naming the value and the range.
    mutating func shadows() throws(CLIError) -> Double? {
        guard let shadows = try double("shadows") else { return nil }
        do {
            return try ValueOutOfRangeError.check(shadows, in: SunAwareExposure.shadowsRange, setting: "--shadows")
        } catch {
            throw .usage("\(error)")
        }
    }

    /// `--seed`: the simulated camera's noise seed, 1 when absent.
    mutating func seed() throws(CLIError) -> UInt64 {
        try option("seed", expected: "a whole number ≥ 0") { UInt64($0) } ?? 1
    }

    /// `--shutter`: a duration (see `ShutterSpeed`) that no camera can mistake for none or forever.
    mutating func shutter() throws(CLIError) -> MediaTime? {
        guard let text = try option("shutter") else { return nil }
        guard let duration = ShutterSpeed.parse(text) else {
            throw .usage("--shutter '\(text)' is not a duration such as 4000 (µs), 4000us, 4ms, 0.004s or 1/250 — see 'camerasun help \(command)'")
        }
        guard duration.isNumeric, duration.seconds > 0, duration.seconds < ShutterSpeed.longest else {
            throw .usage("--shutter '\(text)' is \(duration.seconds > 0 ? "longer than an hour" : "shorter than a microsecond") — "
                + "a bare number is microseconds: 4000 is 1/250 s")
        }
        return duration
    }

    /// `--bracket EV,EV[,…]`: a bracket's EV offsets, checked as a photo request checks them.
    mutating func bracket() throws(CLIError) -> [Double]? {
        let bracket = try option("bracket", expected: "EV offsets separated by commas, e.g. -2,0,2") { text in
            let offsets = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            return offsets.contains(nil) ? nil : offsets.compactMap { $0 }
        }
        if let bracket {
            do {
                try PhotoSettings.checkBracket(bracket)
            } catch {
                throw .usage("--bracket: \(error)")
            }
        }
        return bracket
    }

    /// `--gain G` (analogue gain) or `--iso N`, not both.
    mutating func gain() throws(CLIError) -> GainFlag? {
        let gain = try double("gain"), iso = try double("iso")
        if gain != nil && iso != nil {
            throw .usage("--gain and --iso both set the gain — give one of them")
        }
        return gain.map(GainFlag.gain) ?? iso.map(GainFlag.iso)
    }

    /// `--gps LAT,LON[,ALT]`: where photos are taken, in degrees (north and east positive) and
    /// metres above sea level.
    mutating func location() throws(CLIError) -> GPSLocation? {
        try option("gps", expected: "LAT,LON or LAT,LON,ALT in degrees (-90…90, -180…180) and metres, e.g. 51.5,-0.12,35") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard (2...3).contains(parts.count), let latitude = parts[0], let longitude = parts[1], (-90...90).contains(latitude),
                  (-180...180).contains(longitude) else { return nil }
            guard parts.count == 3 else { return GPSLocation(latitude: latitude, longitude: longitude) }
            guard let altitude = parts[2], altitude.isFinite else { return nil }
            return GPSLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        }
    }

    /// The next positional argument, consumed.
    public mutating func positional(_ what: String) throws(CLIError) -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") }) else {
            throw .usage("\(command) needs \(what) — see 'camerasun help \(command)'")
        }
        return remaining.remove(at: index)
    }

    /// Throws when anything was not consumed.
    public func finish() throws(CLIError) {
        guard let first = remaining.first else { return }
        let what = first.hasPrefix("--") ? "unknown option '\(first)'" : "unexpected argument '\(first)'"
        throw .usage("\(what) for '\(command)' — see 'camerasun help \(command)'")
    }
}
