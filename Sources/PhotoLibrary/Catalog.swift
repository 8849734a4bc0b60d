import CSQLite3
import Foundation

/// The catalogue: table `assets` in `catalog.sqlite`, one row per photo or movie, in WAL mode with
/// synchronous=FULL so a committed row survives a crash or power cut. The schema version is kept
/// in `PRAGMA user_version`.
///
/// Version 2 added the movie columns as nullable columns at the end of `assets` (NULL in a photo's
/// row) rather than a side table: one row is still the whole asset, read without a join, and an
/// old catalogue is brought up to date in place by `ALTER TABLE … ADD COLUMN`, in the same
/// transaction that sets the new version, so every photo stays as it was. Version 3 added a pair's
/// DNG the same way: its file is the row's companion, not an asset of its own.
///
/// ```sql
/// CREATE TABLE assets (
///     id TEXT PRIMARY KEY NOT NULL,             -- also the file name without extension
///     kind TEXT NOT NULL,                       -- Asset.Kind: 'photo' or 'movie'
///     path TEXT NOT NULL UNIQUE,                -- relative: YYYY/MM/DD/ID.EXT
///     created_at INTEGER NOT NULL,              -- milliseconds since 1970-01-01 UTC
///     width INTEGER NOT NULL, height INTEGER NOT NULL, byte_count INTEGER NOT NULL,
///     exposure_time REAL, iso REAL, ev_bias REAL, metering_mode TEXT,  -- NULL when unknown
///     metering_statistics TEXT,                 -- JSON (json_valid), NULL when absent
///     sha256 TEXT NOT NULL,                     -- lowercase hex of the file's bytes
///     state TEXT NOT NULL DEFAULT 'ok',         -- Asset.State: 'ok', 'missing', 'damaged'
///     -- version 2, movies only (NULL for photos):
///     duration REAL, frame_count INTEGER,       -- seconds; video frames
///     video_codec TEXT, audio_codec TEXT,       -- e.g. 'h264', 'aac'; audio NULL without sound
///     stop_reason TEXT, recovered INTEGER,      -- why the take ended; 1 when `repair` saved it
///     thumbnail_path TEXT,                      -- relative: YYYY/MM/DD/ID.thumb.jpg, NULL without one
///     -- version 3, the DNG of a RAW + JPEG pair (NULL for any other asset):
///     raw_path TEXT, raw_byte_count INTEGER, raw_sha256 TEXT  -- relative: YYYY/MM/DD/ID.dng
/// ) STRICT;
/// ```
final class Catalog {
    static let schemaVersion: Int64 = 3
    static let busyTimeout = 10.0
    let connection: SQLiteConnection

    /// Opens the catalogue at `path`. Read-write, it is created when absent and its schema brought
    /// up to `schemaVersion` (an older one migrated in place, in one transaction); `readOnly`, for a library on a volume or in a folder that cannot be
    /// written, it must have that schema already.
    init(path: String, readOnly: Bool) throws(SQLiteError) {
        guard !readOnly else {
            connection = try Self.openReadOnly(path)
            let version = try Self.schemaVersion(of: connection)
            guard version == Self.schemaVersion else {
                throw SQLiteError(operation: "open", code: SQLITE_READONLY, message: "schema version \(version) is not "
                    + "this CameraSun's \(Self.schemaVersion), and a read-only catalogue cannot be brought up to date")
            }
            return
        }
        connection = try SQLiteConnection(path: path, access: .readWrite, busyTimeout: Self.busyTimeout)
        let mode = try connection.query("PRAGMA journal_mode = WAL") { $0.text(0) }.first ?? nil
        guard mode == "wal" else {
            throw SQLiteError(operation: "switch to write-ahead logging", code: SQLITE_ERROR,
                              message: "the journal mode stayed \(mode ?? "unknown")")
        }
        try connection.run("PRAGMA synchronous = FULL")
        // Only a new catalogue is written to here, so a current one opens on a read-only volume too.
        guard try schemaVersion() != Self.schemaVersion else { return }
        try connection.transaction { () throws(SQLiteError) in
            switch try schemaVersion() {
            case 0:
                try createSchema()
                try addMovieColumns()
                try addRawColumns()
            case 1:
                try addMovieColumns()
                try addRawColumns()
            case 2: try addRawColumns()
            case Self.schemaVersion: break
            case let newer:
                throw SQLiteError(operation: "open", code: SQLITE_ERROR,
                                  message: "schema version \(newer) is newer than this CameraSun's \(Self.schemaVersion)")
            }
        }
    }

    private func schemaVersion() throws(SQLiteError) -> Int64 {
        try Self.schemaVersion(of: connection)
    }

    private static func schemaVersion(of connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        try connection.query("PRAGMA user_version") { $0.integer(0) }.first.flatMap { $0 } ?? 0
    }

    /// A read-only connection to the catalogue at `path`. A write-ahead-log database on a volume
    /// that cannot be written opens read-only only while its `-shm` index exists (a writer has it
    /// open); without one, the last writer checkpointed the log away, so nothing is pending and the
    /// file is read as immutable.
    private static func openReadOnly(_ path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: busyTimeout)
        do {
            _ = try schemaVersion(of: connection)
            return connection
        } catch where error.primaryCode == SQLITE_CANTOPEN {
            return try SQLiteConnection(path: path, access: .immutable, busyTimeout: busyTimeout)
        }
    }

    private func createSchema() throws(SQLiteError) {
        try connection.run("""
            CREATE TABLE assets (
                id TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                path TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
                exposure_time REAL,
                iso REAL,
                ev_bias REAL,
                metering_mode TEXT,
                metering_statistics TEXT CHECK (metering_statistics IS NULL OR json_valid(metering_statistics)),
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                state TEXT NOT NULL DEFAULT 'ok' CHECK (state IN ('ok', 'missing', 'damaged'))
            ) STRICT
            """)
        try connection.run("CREATE INDEX assets_by_creation ON assets (created_at, id)")
        try connection.run("PRAGMA user_version = 1")
    }

    /// Version 1 → 2: the movie columns, NULL in every existing (photo) row.
    private func addMovieColumns() throws(SQLiteError) {
        try connection.run("ALTER TABLE assets ADD COLUMN duration REAL CHECK (duration IS NULL OR duration >= 0)")
        try connection.run("ALTER TABLE assets ADD COLUMN frame_count INTEGER CHECK (frame_count IS NULL OR frame_count >= 0)")
        try connection.run("ALTER TABLE assets ADD COLUMN video_codec TEXT")
        try connection.run("ALTER TABLE assets ADD COLUMN audio_codec TEXT")
        try connection.run("ALTER TABLE assets ADD COLUMN stop_reason TEXT")
        try connection.run("ALTER TABLE assets ADD COLUMN recovered INTEGER CHECK (recovered IS NULL OR recovered IN (0, 1))")
        try connection.run("ALTER TABLE assets ADD COLUMN thumbnail_path TEXT")
        try connection.run("PRAGMA user_version = 2")
    }

    /// Version 2 → 3: a RAW + JPEG pair's DNG, NULL in every existing row.
    private func addRawColumns() throws(SQLiteError) {
        try connection.run("ALTER TABLE assets ADD COLUMN raw_path TEXT")
        try connection.run("ALTER TABLE assets ADD COLUMN raw_byte_count INTEGER CHECK (raw_byte_count IS NULL OR raw_byte_count >= 0)")
        try connection.run("ALTER TABLE assets ADD COLUMN raw_sha256 TEXT CHECK (raw_sha256 IS NULL OR length(raw_sha256) = 64)")
        try connection.run("CREATE UNIQUE INDEX assets_by_raw_path ON assets (raw_path)")
        try connection.run("PRAGMA user_version = 3")
    }

    /// Adds `asset` in its own transaction; fails if its id or path is already catalogued.
    func insert(_ asset: Asset) throws(SQLiteError) {
        try connection.transaction { () throws(SQLiteError) in
            try connection.run("""
                INSERT INTO assets (id, kind, path, created_at, width, height, byte_count, exposure_time, iso,
                                    ev_bias, metering_mode, metering_statistics, sha256, state, duration, frame_count,
                                    video_codec, audio_codec, stop_reason, recovered, thumbnail_path, raw_path, raw_byte_count,
                                    raw_sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [
                    .text(asset.id), .text(asset.kind.rawValue), .text(asset.path),
                    .integer(Int64(asset.createdAt.millisecondsSince1970)),
                    .integer(Int64(asset.width)), .integer(Int64(asset.height)), .integer(Int64(asset.byteCount)),
                    .nullable(asset.exposure?.exposureTime), .nullable(asset.exposure?.iso),
                    .nullable(asset.exposure?.evBias), .nullable(asset.exposure?.meteringMode),
                    .nullable(asset.meteringStatistics), .text(asset.sha256), .text(asset.state.rawValue),
                    .nullable(asset.movie?.duration), asset.movie.map { .integer(Int64($0.frameCount)) } ?? .null,
                    .nullable(asset.movie?.videoCodec), .nullable(asset.movie?.audioCodec),
                    .nullable(asset.movie?.stopReason), asset.movie.map { .integer($0.recovered ? 1 : 0) } ?? .null,
                    .nullable(asset.movie?.thumbnailPath), .nullable(asset.raw?.path),
                    asset.raw.map { .integer(Int64($0.byteCount)) } ?? .null, .nullable(asset.raw?.sha256),
                ])
        }
    }

    /// Every asset, oldest first.
    func all() throws(SQLiteError) -> [Asset] {
        try connection.query("SELECT * FROM assets ORDER BY created_at, id", row: Self.asset)
    }

    /// The asset with `id`, or nil.
    func asset(id: String) throws(SQLiteError) -> Asset? {
        try connection.query("SELECT * FROM assets WHERE id = ?", [.text(id)], row: Self.asset).first
    }

    /// The asset whose file is at the relative `path`, or nil.
    func asset(path: String) throws(SQLiteError) -> Asset? {
        try connection.query("SELECT * FROM assets WHERE path = ?", [.text(path)], row: Self.asset).first
    }

    /// Whether a row names the relative `path` as its file, its movie's thumbnail or its DNG.
    func references(path: String) throws(SQLiteError) -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM assets WHERE path = ?1 OR thumbnail_path = ?1 OR raw_path = ?1)",
                             [.text(path)]) { $0.integer(0) }.first.flatMap { $0 } == 1
    }

    /// Gives the movie `id` the thumbnail at the relative `path`.
    func setThumbnail(_ path: String, movieID id: String) throws(SQLiteError) {
        try connection.run("UPDATE assets SET thumbnail_path = ? WHERE id = ? AND kind = 'movie'", [.text(path), .text(id)])
    }

    /// Gives the photo `id` the DNG `raw`, making it a RAW + JPEG pair.
    func setRaw(_ raw: Asset.Raw, photoID id: String) throws(SQLiteError) {
        try connection.run("UPDATE assets SET raw_path = ?, raw_byte_count = ?, raw_sha256 = ? WHERE id = ? AND kind = 'photo'",
                           [.text(raw.path), .integer(Int64(raw.byteCount)), .text(raw.sha256), .text(id)])
    }

    /// Records what `repair` found of an asset's file.
    func setState(_ state: Asset.State, id: String) throws(SQLiteError) {
        try connection.run("UPDATE assets SET state = ? WHERE id = ?", [.text(state.rawValue), .text(id)])
    }

    /// The asset in the current row of a `SELECT *`, whose columns come in CREATE TABLE order.
    private static func asset(_ row: SQLiteStatement) throws(SQLiteError) -> Asset {
        let id = row.text(0) ?? ""
        guard let kind = row.text(1).flatMap(Asset.Kind.init(rawValue:)),
              let state = row.text(13).flatMap(Asset.State.init(rawValue:)) else {
            throw SQLiteError(operation: "read asset \(id)", code: SQLITE_CORRUPT,
                              message: "kind \(row.text(1) ?? "NULL") or state \(row.text(13) ?? "NULL") is not one this CameraSun knows")
        }
        var exposure: Asset.Exposure?
        if let time = row.real(7), let iso = row.real(8), let bias = row.real(9), let mode = row.text(10) {
            exposure = Asset.Exposure(exposureTime: time, iso: iso, evBias: bias, meteringMode: mode)
        }
        return Asset(id: id, kind: kind, path: row.text(2) ?? "",
                     createdAt: Date(millisecondsSince1970: row.integer(3) ?? 0),
                     width: Int(row.integer(4) ?? 0), height: Int(row.integer(5) ?? 0),
                     byteCount: Int(row.integer(6) ?? 0), exposure: exposure,
                     meteringStatistics: row.text(11), sha256: row.text(12) ?? "", state: state,
                     movie: kind == .movie ? try movie(row, id: id) : nil, raw: raw(row))
    }

    /// The DNG columns of the current row, nil unless all three are there.
    private static func raw(_ row: SQLiteStatement) -> Asset.Raw? {
        guard let path = row.text(21), let byteCount = row.integer(22), let sha256 = row.text(23) else { return nil }
        return Asset.Raw(path: path, byteCount: Int(byteCount), sha256: sha256)
    }

    /// The movie columns of the current row, which belongs to the movie `id`.
    private static func movie(_ row: SQLiteStatement, id: String) throws(SQLiteError) -> Asset.Movie {
        guard let duration = row.real(14), let frames = row.integer(15), let video = row.text(16),
              let reason = row.text(18), let recovered = row.integer(19) else {
            throw SQLiteError(operation: "read movie \(id)", code: SQLITE_CORRUPT,
                              message: "its duration, frame count, video codec, stop reason or recovered flag is NULL")
        }
        return Asset.Movie(duration: duration, frameCount: Int(frames), videoCodec: video, audioCodec: row.text(17),
                           stopReason: reason, recovered: recovered != 0, thumbnailPath: row.text(20))
    }
}

extension Date {
    /// The date of a catalogue timestamp.
    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date as a catalogue timestamp, to the nearest millisecond.
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
