import Foundation
import PhotoLibrary
import Testing

/// A catalogue made before movies (schema version 1) is brought up to date in place when opened.
@Suite struct MigrationTests {
    /// Version 1's schema, exactly as it was created before movies were catalogued.
    static let versionOneSchema = """
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
        ) STRICT;
        CREATE INDEX assets_by_creation ON assets (created_at, id);
        PRAGMA journal_mode = WAL;
        PRAGMA user_version = 1;
        """

    /// A version-1 library in `directory`: `count` photos on 2025-06-01, files and rows, the
    /// last one recorded missing; returns their ids and bytes.
    static func makeVersionOneLibrary(in directory: URL, count: Int) throws -> [(id: String, bytes: [UInt8])] {
        let folder = directory.appendingPathComponent("2025/06/01")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var photos: [(id: String, bytes: [UInt8])] = []
        var inserts = ""
        for index in 0..<count {
            let id = "20250601-12345\(index)000-00000000000\(index)"
            let bytes = JPEGBytes.make(width: 64, height: 48, scanLength: 400 + index)
            let missing = index == count - 1
            if !missing { try Data(bytes).write(to: folder.appendingPathComponent("\(id).jpg")) }
            inserts += """
                INSERT INTO assets VALUES ('\(id)', 'photo', '2025/06/01/\(id).jpg', \(1_748_781_290_000 + index * 1000),
                    64, 48, \(bytes.count), 0.004, 200.0, 0.7, 'sun', '{"brightness":0.4}', '\(try sha256sum(bytes))',
                    '\(missing ? "missing" : "ok")');

                """
            photos.append((id, bytes))
        }
        try run("/usr/bin/sqlite3", [directory.appendingPathComponent("catalog.sqlite").path, versionOneSchema + inserts])
        return photos
    }

    @Test("opening a version-1 catalogue migrates it to version 2 in place and keeps every photo with every field")
    func keepsEveryPhoto() async throws {
        try await withTemporaryDirectory { directory in
            let photos = try Self.makeVersionOneLibrary(in: directory, count: 4)
            let catalog = directory.appendingPathComponent("catalog.sqlite").path
            let before = try run("/usr/bin/sqlite3", [catalog, "SELECT * FROM assets ORDER BY id"])

            let library = try PhotoLibrary(opening: directory, timeZone: .gmt)
            #expect(try run("/usr/bin/sqlite3", [catalog, "PRAGMA user_version"]) == "3\n")
            let columns = try run("/usr/bin/sqlite3", [catalog, "SELECT group_concat(name, ',') FROM pragma_table_info('assets')"])
            #expect(columns.hasSuffix(",state,duration,frame_count,video_codec,audio_codec,stop_reason,recovered,thumbnail_path,raw_path,raw_byte_count,raw_sha256\n"))
            let after = try run("/usr/bin/sqlite3", [catalog, "SELECT id, kind, path, created_at, width, height, byte_count, "
                + "exposure_time, iso, ev_bias, metering_mode, metering_statistics, sha256, state FROM assets ORDER BY id"])
            #expect(after == before)

            let assets = try library.list()
            #expect(assets.map(\.id) == photos.map(\.id))
            for (asset, photo) in zip(assets, photos) {
                #expect(asset.kind == .photo && asset.movie == nil && asset.byteCount == photo.bytes.count)
                #expect(asset.sha256 == (try sha256sum(photo.bytes)))
                #expect(asset.exposure == Asset.Exposure(exposureTime: 0.004, iso: 200, evBias: 0.7, meteringMode: "sun"))
                #expect(asset.meteringStatistics == #"{"brightness":0.4}"#)
            }
            #expect(assets.map(\.state) == [.ok, .ok, .ok, .missing])
            let report = try library.verify()
            #expect(report.isClean && report.assetCount == 4 && report.recordedProblems.map(\.kind) == [.missingFile])

            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(TakeDouble.bytes(), into: reservation)
            let movie = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped")
            #expect(try PhotoLibrary(opening: directory, timeZone: .gmt).list().map(\.id) == photos.map(\.id) + [movie.id])
        }
    }

    @Test("a catalogue from a newer CameraSun is refused, naming both versions, and left unchanged")
    func newerSchema() async throws {
        try await withTemporaryDirectory { directory in
            _ = try Self.makeVersionOneLibrary(in: directory, count: 1)
            let catalog = directory.appendingPathComponent("catalog.sqlite").path
            try run("/usr/bin/sqlite3", [catalog, "PRAGMA user_version = 7"])
            let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(opening: directory, timeZone: .gmt) }
            #expect(error?.kind == .catalog)
            #expect(error?.description.contains("schema version 7 is newer than this CameraSun's 3") == true,
                    "\(String(describing: error))")
            #expect(try run("/usr/bin/sqlite3", [catalog, "SELECT count(*) FROM pragma_table_info('assets')"]) == "14\n")
        }
    }
}
