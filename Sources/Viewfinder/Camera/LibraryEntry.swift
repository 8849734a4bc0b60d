import Foundation
import PhotoLibrary

/// A library asset as the viewfinder's API shows it (`POST /api/photo`, `POST /api/record`'s
/// stop, `GET /library`): the asset's id, `kind` (photo or movie), time, size and, for a photo,
/// its exposure — the fields `camerasun photo --json` prints — or, for a movie, what
/// `camerasun record --json` prints and the `thumbnailUrl`; and the `url` of its file. Never a
/// file-system path: files are fetched by catalogued id.
struct LibraryEntry: Encodable, Sendable {
    let id: String
    /// photo or movie.
    let kind: String
    let url: String
    /// ISO 8601 UTC with milliseconds.
    let createdAt: String
    let width: Int
    let height: Int
    let byteCount: Int
    /// Absent for movies, and for photos catalogued by `repair`, whose settings were never recorded.
    let exposureTime: Double?
    let iso: Double?
    let evBias: Double?
    let meteringMode: String?
    /// A movie's seconds, frames, codecs (`video`, and `audio` unless it has no sound), why its
    /// take ended, whether `repair` recovered it, and its thumbnail's URL; absent for photos.
    let duration: Double?
    let frames: Int?
    let video: String?
    let audio: String?
    let stopReason: String?
    let recovered: Bool?
    let thumbnailUrl: String?
    /// The DNG's size in bytes for a RAW + JPEG pair (its JPEG is the `url`); absent otherwise.
    let rawByteCount: Int?
    /// ok, missing or damaged, as the catalogue last found the file.
    let state: String
    /// What the flash did, in the answer to `POST /api/photo` only (the catalogue keeps no such record).
    let flash: PhotoFlashEntry?

    init(_ asset: Asset, flash: PhotoFlashEntry? = nil) {
        id = asset.id
        kind = asset.kind.rawValue
        url = "/library/\(asset.id)"
        createdAt = asset.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        width = asset.width
        height = asset.height
        byteCount = asset.byteCount
        exposureTime = asset.exposure?.exposureTime
        iso = asset.exposure?.iso
        evBias = asset.exposure?.evBias
        meteringMode = asset.exposure?.meteringMode
        let movie = asset.movie
        duration = movie?.duration
        frames = movie?.frameCount
        video = movie?.videoCodec
        audio = movie?.audioCodec
        stopReason = movie?.stopReason
        recovered = movie?.recovered
        thumbnailUrl = movie?.thumbnailPath.map { _ in "/library/\(asset.id)/thumbnail" }
        rawByteCount = asset.raw?.byteCount
        state = asset.state.rawValue
        self.flash = flash
    }
}
