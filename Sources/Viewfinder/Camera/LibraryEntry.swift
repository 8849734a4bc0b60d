import Foundation
import PhotoLibrary

/// A library asset as the viewfinder's API shows it (`POST /api/photo`, `GET /library`): the
/// asset's id, time, size and exposure — the fields `camerasun photo --json` prints — and the
/// `url` of its file. Never a file-system path: files are fetched by catalogued id.
struct LibraryEntry: Encodable, Sendable {
    let id: String
    let url: String
    /// ISO 8601 UTC with milliseconds.
    let createdAt: String
    let width: Int
    let height: Int
    let byteCount: Int
    /// Absent for photos catalogued by `repair`, whose settings were never recorded.
    let exposureTime: Double?
    let iso: Double?
    let evBias: Double?
    let meteringMode: String?
    /// ok, missing or damaged, as the catalogue last found the file.
    let state: String

    init(_ asset: Asset) {
        id = asset.id
        url = "/library/\(asset.id)"
        createdAt = asset.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        width = asset.width
        height = asset.height
        byteCount = asset.byteCount
        exposureTime = asset.exposure?.exposureTime
        iso = asset.exposure?.iso
        evBias = asset.exposure?.evBias
        meteringMode = asset.exposure?.meteringMode
        state = asset.state.rawValue
    }
}
