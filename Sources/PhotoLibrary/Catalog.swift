import CSQLite3
import Foundation

/// The catalogue: table `assets` in `catalog.sqlite`, one row per file, in WAL mode with
/// synchronous=FULL so a committed row survives a crash or power cut. The schema version is kept
/// in `PRAGMA user_version`.
///
/// ```sql
/// CREATE TABLE assets (
///     id TEXT PRIMARY KEY NOT NULL,             -- also the file name without extension
///     kind TEXT NOT NULL,                       -- Asset.Kind: 'photo'
///     path TEXT NOT NULL UNIQUE,                -- relative: YYYY/MM/DD/ID.EXT
///     created_at INTEGER NOT NULL,              -- milliseconds since 1970-01-01 UTC
///     width INTEGER NOT NULL, height INTEGER NOT NULL, byte_count INTEGER NOT NULL,
///     exposure_time REAL, iso REAL, ev_bias REAL, metering_mode TEXT,  -- NULL when unknown
///     metering_statistics TEXT,                 -- JSON (json_valid), NULL when absent
///     sha256 TEXT NOT NULL,                     -- lowercase hex of the file's bytes
///     state TEXT NOT NULL DEFAULT 'ok'          -- Asset.State: 'ok', 'missing', 'damaged'
/// ) STRICT;
/// ```
final class Catalog {
    static let schemaVersion: Int64 = 1
    static let busyTimeout = 10.0
    let connection: SQLiteConnection

    /// Opens the catalogue at `path`. Read-write, it is created when absent and its schema brought
    /// up to `schemaVersion`; `readOnly`, for a library on a volume or in a folder that cannot be
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
            case 0: try createSchema()
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

    /// Adds `asset` in its own transaction; fails if its id or path is already catalogued.
    func insert(_ asset: Asset) throws(SQLiteError) {
        try connection.transaction { () throws(SQLiteError) in
            try connection.run("""
                INSERT INTO assets (id, kind, path, created_at, width, height, byte_count, exposure_time, iso,
                                    ev_bias, metering_mode, metering_statistics, sha256, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [
                    .text(asset.id), .text(asset.kind.rawValue), .text(asset.path),
                    .integer(Int64(asset.createdAt.millisecondsSince1970)),
                    .integer(Int64(asset.width)), .integer(Int64(asset.height)), .integer(Int64(asset.byteCount)),
                    .nullable(asset.exposure?.exposureTime), .nullable(asset.exposure?.iso),
                    .nullable(asset.exposure?.evBias), .nullable(asset.exposure?.meteringMode),
                    .nullable(asset.meteringStatistics), .text(asset.sha256), .text(asset.state.rawValue),
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
                     meteringStatistics: row.text(11), sha256: row.text(12) ?? "", state: state)
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
