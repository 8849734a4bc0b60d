import Foundation

/// Where files live inside a library directory: `YYYY/MM/DD/ID.EXT`, the date in the library's
/// time zone, next to the hidden temporary files `.tmp-ID.EXT` they are written as. Ids sort by
/// time: `YYYYMMDD-HHMMSSmmm-` and 12 random hexadecimal digits.
struct LibraryLayout: Sendable {
    static let catalogName = "catalog.sqlite"
    static let temporaryPrefix = ".tmp-"
    /// Where `repair` moves files it finds in dated folders but cannot catalogue.
    static let unrecognizedFolder = "Unrecognised"

    let timeZone: TimeZone

    /// The dated folder for `date`, e.g. `2025/06/01`.
    func folder(for date: Date) -> String {
        let parts = components(of: date)
        return "\(digits(parts.year, 4))/\(digits(parts.month, 2))/\(digits(parts.day, 2))"
    }

    /// A new id for an asset created at `date`, e.g. `20250601-123456789-3fa2c1d9b07e`.
    func makeID(for date: Date) -> String {
        let parts = components(of: date)
        let milliseconds = Int(date.millisecondsSince1970 % 1000)
        let random = String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
        return digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2) + "-"
            + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + digits(milliseconds, 3)
            + "-" + String(repeating: "0", count: 12 - random.count) + random
    }

    /// The hidden name a file called `name` is written under before it is renamed to `name`.
    static func temporaryName(for name: String) -> String { temporaryPrefix + name }

    /// Whether `name` is one of the library's temporary files.
    static func isTemporary(_ name: String) -> Bool { name.hasPrefix(temporaryPrefix) }

    private func components(of date: Date) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    private func digits(_ value: Int?, _ count: Int) -> String {
        let text = String(value ?? 0)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
