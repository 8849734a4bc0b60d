import Foundation
import PhotoLibrary
import Testing

@Suite struct AddAndListTests {
    static let created = Date(timeIntervalSince1970: 1_748_781_296.789)   // 2025-06-01T12:34:56.789Z
    static let exposure = Asset.Exposure(exposureTime: 1.0 / 250, iso: 200, evBias: 0.7, meteringMode: "sun")
    static let statistics = #"{"brightness":0.42,"clippedFraction":0.013,"sunFraction":0.021}"#

    @Test("an added photo comes back from list, asset(id:) and a reopened library with every field")
    func roundTrip() async throws {
        let bytes = JPEGBytes.make(width: 1920, height: 1080, scanLength: 5000)
        try await withLibrary { library in
            let asset = try library.add(bytes, createdAt: Self.created, width: 1920, height: 1080,
                                        exposure: Self.exposure, meteringStatistics: Self.statistics)
            #expect(asset.id.wholeMatch(of: /20250601-123456789-[0-9a-f]{12}/) != nil)
            #expect(asset.kind == .photo)
            #expect(asset.path == "2025/06/01/\(asset.id).jpg")
            #expect(asset.createdAt == Self.created)
            #expect([asset.width, asset.height, asset.byteCount] as [Int] == [1920, 1080, bytes.count])
            #expect(asset.exposure == Self.exposure)
            #expect(asset.meteringStatistics == Self.statistics)
            #expect(asset.sha256 == (try sha256sum(bytes)))
            #expect(asset.state == .ok)

            #expect(try library.list() == [asset])
            #expect(try library.asset(id: asset.id) == asset)
            #expect(try Data(contentsOf: library.fileURL(for: asset)) == Data(bytes))
            let reopened = try PhotoLibrary(directory: library.directory, timeZone: .gmt)
            #expect(try reopened.list() == [asset])
        }
    }

    @Test("the catalogue is an SQLite database in WAL mode whose row holds the values, as the sqlite3 tool reads it")
    func catalogueAsSqlite3ReadsIt() async throws {
        try await withLibrary { library in
            let asset = try library.add(JPEGBytes.make(width: 640, height: 480), createdAt: Self.created,
                                        width: 640, height: 480, exposure: Self.exposure,
                                        meteringStatistics: Self.statistics)
            let catalog = library.directory.appendingPathComponent("catalog.sqlite").path
            let output = try run("/usr/bin/sqlite3", ["-separator", "|", catalog, "PRAGMA journal_mode",
                "SELECT id, kind, path, created_at, width, height, exposure_time, iso, ev_bias, metering_mode, "
                    + "json_extract(metering_statistics, '$.sunFraction'), sha256, state FROM assets"])
            #expect(output.split(separator: "\n") == ["wal", """
                \(asset.id)|photo|\(asset.path)|1748781296789|640|480|0.004|200.0|0.7|sun|0.021|\(asset.sha256)|ok
                """])
        }
    }

    @Test("list returns assets oldest first, whatever order they were added in")
    func oldestFirst() async throws {
        try await withLibrary { library in
            let offsets: [Double] = [3600, 0, 86_400 * 40, 60]
            for offset in offsets {
                _ = try library.add([1, 2, 3], createdAt: Self.created + offset, width: 1, height: 1)
            }
            let listed = try library.list()
            #expect(listed.map(\.createdAt) == offsets.sorted().map { Self.created + $0 })
            #expect(listed.map { String($0.path.prefix(10)) } == ["2025/06/01", "2025/06/01", "2025/06/01", "2025/07/11"])
        }
    }

    @Test("an asset encodes to JSON with stable field names, an ISO 8601 time and nulls for unknowns")
    func jsonShape() async throws {
        try await withLibrary { library in
            let asset = try library.add([0xFF, 0xD8, 0xFF, 0xD9], createdAt: Self.created, width: 8, height: 6)
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(asset)) as? [String: Any]
            #expect(json.map { Set($0.keys) } == ["id", "kind", "path", "createdAt", "width", "height", "byteCount",
                                                  "exposure", "meteringStatistics", "sha256", "state", "movie", "raw"])
            #expect(json?["createdAt"] as? String == "2025-06-01T12:34:56.789Z")
            #expect(json?["exposure"] is NSNull && json?["movie"] is NSNull && json?["raw"] is NSNull)
            #expect(json?["state"] as? String == "ok")
            #expect(try JSONDecoder().decode(Asset.self, from: JSONEncoder().encode(asset)) == asset)
        }
    }

    @Test("an unknown id is an error that names it")
    func unknownID() async throws {
        try await withLibrary { library in
            let error = #expect(throws: PhotoLibraryError.self) { try library.asset(id: "20250601-nope") }
            #expect(error?.kind == .notFound)
            #expect(error?.description.contains("\"20250601-nope\"") == true)
        }
    }

    @Test("malformed arguments are refused, naming the value, before anything is written", arguments: [
        ("JPG", 8, #"{"a":1}"#, "\"JPG\""),
        ("jpg", 0, #"{"a":1}"#, "0×6"),
        ("jpg", 8, #"{"a":"#, "not valid JSON"),
    ])
    func invalidArguments(fileExtension: String, width: Int, statistics: String, named: String) async throws {
        try await withLibrary { library in
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add([1, 2, 3], fileExtension: fileExtension, width: width, height: 6,
                                meteringStatistics: statistics)
            }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.description.contains(named) == true)
            #expect(allFiles(under: library.directory).allSatisfy { $0.hasPrefix("catalog.sqlite") })
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }
}
