import Foundation

/// One photo or movie in the library, as its catalogue row describes it. Encodes to JSON with the
/// field names below, every field present (null when unknown: `exposure` for a movie, `movie` for
/// a photo, `raw` for a photo without its DNG), `createdAt` as ISO 8601 UTC with milliseconds — the shape `camerasun library
/// list|show --json` prints.
public struct Asset: Sendable, Hashable, Identifiable, Codable {
    /// What the file holds.
    public enum Kind: String, Sendable, Hashable, Codable {
        case photo
        /// A recording (`ID.mp4`); its asset has `movie`.
        case movie
    }

    /// Whether the file was intact when the catalogue last looked.
    public enum State: String, Sendable, Hashable, Codable {
        /// The file is there with the catalogued bytes.
        case ok
        /// `repair` found the file gone; the row is kept as a record of what was lost and goes back
        /// to `ok` if the intact file is restored.
        case missing
        /// `repair` found the bytes changed since they were written (SHA-256 mismatch).
        case damaged
    }

    /// The exposure a photo was taken with.
    public struct Exposure: Sendable, Hashable, Codable {
        /// Seconds.
        public var exposureTime: Double
        public var iso: Double
        /// Exposure compensation in EV.
        public var evBias: Double
        /// The metering mode's command-line name, e.g. `sun` or `spot@0.4,0.6`.
        public var meteringMode: String

        public init(exposureTime: Double, iso: Double, evBias: Double, meteringMode: String) {
            self.exposureTime = exposureTime
            self.iso = iso
            self.evBias = evBias
            self.meteringMode = meteringMode
        }
    }

    /// Unique in the library; also the file's name without its extension.
    public let id: String
    public let kind: Kind
    /// The file's path relative to the library directory, `YYYY/MM/DD/ID.EXT`.
    public let path: String
    /// When the photo was taken or the recording started, to the millisecond.
    public let createdAt: Date
    public let width: Int
    public let height: Int
    /// The file's size in bytes.
    public let byteCount: Int
    /// Unknown (nil) for photos catalogued by `repair`, whose settings were never recorded.
    public let exposure: Exposure?
    /// The frame's metering statistics as a JSON text, when the camera supplied them.
    public let meteringStatistics: String?
    /// SHA-256 of the file's bytes, lowercase hexadecimal.
    public let sha256: String
    public let state: State
    /// What a movie holds and how its take ended; nil for a photo.
    public let movie: Movie?
    /// The DNG of a RAW + JPEG pair (the photo is its JPEG); nil for any other asset.
    public let raw: Raw?

    private enum CodingKeys: String, CodingKey {
        case id, kind, path, createdAt, width, height, byteCount, exposure, meteringStatistics, sha256, state, movie, raw
    }

    init(id: String, kind: Kind, path: String, createdAt: Date, width: Int, height: Int, byteCount: Int,
         exposure: Exposure?, meteringStatistics: String?, sha256: String, state: State, movie: Movie? = nil, raw: Raw? = nil) {
        self.id = id
        self.kind = kind
        self.path = path
        self.createdAt = createdAt
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.exposure = exposure
        self.meteringStatistics = meteringStatistics
        self.sha256 = sha256
        self.state = state
        self.movie = movie
        self.raw = raw
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let created = try container.decode(String.self, forKey: .createdAt)
        do {
            createdAt = try Self.timestampStyle.parse(created)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: container,
                debugDescription: "createdAt \"\(created)\" is not an ISO 8601 time like 2025-06-01T12:34:56.789Z")
        }
        id = try container.decode(String.self, forKey: .id)
        kind = try container.decode(Kind.self, forKey: .kind)
        path = try container.decode(String.self, forKey: .path)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        byteCount = try container.decode(Int.self, forKey: .byteCount)
        exposure = try container.decodeIfPresent(Exposure.self, forKey: .exposure)
        meteringStatistics = try container.decodeIfPresent(String.self, forKey: .meteringStatistics)
        sha256 = try container.decode(String.self, forKey: .sha256)
        state = try container.decode(State.self, forKey: .state)
        movie = try container.decodeIfPresent(Movie.self, forKey: .movie)
        raw = try container.decodeIfPresent(Raw.self, forKey: .raw)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encode(createdAt.formatted(Self.timestampStyle), forKey: .createdAt)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(byteCount, forKey: .byteCount)
        try container.encode(exposure, forKey: .exposure)
        try container.encode(meteringStatistics, forKey: .meteringStatistics)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(state, forKey: .state)
        try container.encode(movie, forKey: .movie)
        try container.encode(raw, forKey: .raw)
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
