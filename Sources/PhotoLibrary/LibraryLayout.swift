import Foundation

/// Where files live inside a library directory: `YYYY/MM/DD/ID.EXT`, the date in the library's
/// time zone, next to the hidden temporary files `.tmp-ID.EXT` they are written as. A movie is
/// `ID.mp4`, recorded as `ID.mp4.partial` until its take is saved, with its thumbnail beside it
/// as `ID.thumb.jpg`. Ids sort by time: `YYYYMMDD-HHMMSSmmm-` and 12 random hexadecimal digits.
struct LibraryLayout: Sendable {
    static let catalogName = "catalog.sqlite"
    static let temporaryPrefix = ".tmp-"
    /// Where `repair` moves files it finds in dated folders but cannot catalogue.
    static let unrecognizedFolder = "Unrecognised"
    /// Where `repair` moves recordings in which nothing plays: kept for the user, out of the dated folders.
    static let damagedFolder = "Damaged"
    static let movieExtension = "mp4"
    /// The suffix of a take being recorded, as CameraMovie's recorder writes it beside the final name.
    static let partialSuffix = ".partial"
    static let thumbnailSuffix = ".thumb.jpg"
    /// A RAW + JPEG pair's DNG: `ID.dng` beside `ID.jpg`.
    static let rawExtension = "dng"

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

    /// The temporary file a take's reservation holds as room to catalogue it (`MovieReservation`).
    static func catalogueRoom(forMovie id: String) -> String { temporaryName(for: id + roomSuffix) }

    /// Whether `path` names a take's room to catalogue it.
    static func isCatalogueRoom(_ path: String) -> Bool { path.hasSuffix(roomSuffix) }

    private static let roomSuffix = ".room"


    /// Whether `name` is a take still being recorded, or left unfinished: `ID.mp4.partial`.
    static func isPartialRecording(_ name: String) -> Bool { name.hasSuffix(".\(movieExtension)\(partialSuffix)") }

    /// Whether `name` is a movie's thumbnail.
    static func isThumbnail(_ name: String) -> Bool { name.hasSuffix(thumbnailSuffix) }

    /// Whether `name` is a RAW + JPEG pair's DNG, by its extension.
    static func isRaw(_ name: String) -> Bool { name.hasSuffix(".\(rawExtension)") }

    /// Whether the file at `path` is a movie, by its extension.
    static func isMovie(_ path: String) -> Bool { path.hasSuffix(".\(movieExtension)") }

    /// The thumbnail beside the movie file `path`: `…/ID.mp4` → `…/ID.thumb.jpg`.
    static func thumbnail(forMovie path: String) -> String {
        String(path.dropLast(movieExtension.count + 1)) + thumbnailSuffix
    }

    /// The movie file beside the thumbnail `path`: `…/ID.thumb.jpg` → `…/ID.mp4`.
    static func movie(forThumbnail path: String) -> String {
        String(path.dropLast(thumbnailSuffix.count)) + ".\(movieExtension)"
    }

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
