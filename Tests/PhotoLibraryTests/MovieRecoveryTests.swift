import Foundation
import PhotoLibrary
import Testing

/// Takes a recorder left behind (killed while recording, or between saving the take and adding
/// it), found by `verify` and saved by `repair(validateMovie:)` — never silently deleted.
@Suite struct MovieRecoveryTests {
    /// A library holding one unfinished take: recorded into its partial file by a recorder that
    /// then died (the reservation released, so its lock is gone).
    static func withUnfinishedTake(_ body: (PhotoLibrary, String, [UInt8]) async throws -> Void) async throws {
        try await withLibrary { library in
            let bytes = TakeDouble.bytes(50_000, seed: 3)
            let id = try {
                let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
                try TakeDouble.record(bytes, into: reservation)
                return reservation.id
            }()
            try TakeDouble.awaitRecorderGone(library.directory.appendingPathComponent("2025/06/01/\(id).mp4.partial").path)
            try await body(library, id, bytes)
        }
    }

    @Test("verify reports a take left unfinished; repair with a validator that accepts it catalogues it as recovered")
    func recoverPlayableTake() async throws {
        try await Self.withUnfinishedTake { library, id, bytes in
            let partial = "2025/06/01/\(id).mp4.partial"
            let found = try library.verify()
            #expect(found.issues.map { "\($0.kind.rawValue) \($0.path)" } == ["unfinishedRecording \(partial)"])
            #expect(found.issues.first?.detail == "an unfinished recording: a take that was never saved")
            #expect(found.fileCount == 0 && found.inProgressCount == 0)
            let modified = try #require(try FileManager.default.attributesOfItem(
                atPath: library.directory.appendingPathComponent(partial).path)[.modificationDate] as? Date)

            let validator = ValidatorDouble(.success(TakeDouble.facts))
            let repair = try library.repair(validateMovie: validator.validate)
            #expect(validator.paths == [library.directory.appendingPathComponent(partial).path])
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path) \($0.assetID ?? "-")" } == ["recoveredRecording \(partial) \(id)"])
            #expect(repair.actions.first?.detail == "renamed to 2025/06/01/\(id).mp4 and catalogued as recovered: "
                + "1920×1080, 12.0 s, 360 frames, h264 + aac")
            #expect(repair.unrepaired.isEmpty)

            let asset = try library.asset(id: id)
            #expect(asset.kind == .movie && asset.path == "2025/06/01/\(id).mp4" && asset.state == .ok)
            #expect(asset.byteCount == bytes.count)
            #expect(asset.sha256 == (try sha256sum(bytes)))
            #expect(abs(asset.createdAt.timeIntervalSince(modified - 12)) <= 0.001)
            let movie = try #require(asset.movie)
            #expect(movie.recovered && movie.stopReason == "recovered")
            #expect(movie.frameCount == 360 && movie.duration == 12 && movie.thumbnailPath == nil)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")) == ["06/01/\(id).mp4"])
            #expect(try Data(contentsOf: library.fileURL(for: asset)) == Data(bytes))
            #expect(try library.verify().isClean)
        }
    }

    @Test("repair with a validator that finds nothing playable moves the take to Damaged/, reports it and keeps its bytes")
    func setAsideUnplayableTake() async throws {
        try await Self.withUnfinishedTake { library, id, bytes in
            let partial = "2025/06/01/\(id).mp4.partial"
            let repair = try library.repair(validateMovie: ValidatorDouble(.success(nil)).validate)
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path)" } == ["setAsideRecording \(partial)"])
            #expect(repair.actions.first?.detail == "an unfinished recording in which nothing plays; moved to Damaged/\(partial)")
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")).isEmpty)
            let kept = library.directory.appendingPathComponent("Damaged/\(partial)")
            #expect(try Data(contentsOf: kept) == Data(bytes))
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(try library.verify().isClean)
        }
    }

    @Test("without a validator, or with one that cannot tell, the take is left where it is and listed as unrepaired")
    func takeLeftWhenUnchecked() async throws {
        try await Self.withUnfinishedTake { library, id, bytes in
            let partial = library.directory.appendingPathComponent("2025/06/01/\(id).mp4.partial")
            let unchecked = try library.repair()
            let failing = try library.repair(validateMovie: ValidatorDouble(.failure(Failure(description: "no decoder"))).validate)
            for report in [unchecked, failing] {
                #expect(report.actions.isEmpty && report.unrepaired.map(\.kind) == [.unfinishedRecording])
            }
            #expect(try Data(contentsOf: partial) == Data(bytes))
            #expect(try library.verify().issues.map(\.kind) == [.unfinishedRecording])
        }
    }

    @Test("a take saved but never added (a crash before addMovie) is an orphan that repair catalogues with its thumbnail")
    func orphanMovieWithThumbnail() async throws {
        try await withLibrary { library in
            let bytes = TakeDouble.bytes(30_000, seed: 9)
            let id = try {
                let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
                try TakeDouble.recordAndSave(bytes, into: reservation)
                return reservation.id
            }()
            try TakeDouble.awaitRecorderGone(library.directory.appendingPathComponent("2025/06/01/\(id).mp4").path)
            try TakeDouble.thumbnail.write(to: library.directory.appendingPathComponent("2025/06/01/\(id).thumb.jpg"))

            let found = try library.verify()
            #expect(Set(found.issues.map { "\($0.kind.rawValue) \($0.path)" })
                == ["orphanFile 2025/06/01/\(id).mp4", "orphanThumbnail 2025/06/01/\(id).thumb.jpg"])
            #expect(found.fileCount == 1)
            #expect(try library.repair().unrepaired.count == 2, "without a validator both wait")

            let repair = try library.repair(validateMovie: ValidatorDouble(.success(TakeDouble.facts)).validate)
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path)" }
                == ["catalogued 2025/06/01/\(id).mp4", "attachedThumbnail 2025/06/01/\(id).thumb.jpg"])
            let asset = try library.asset(id: id)
            #expect(asset.movie?.recovered == true && asset.movie?.thumbnailPath == "2025/06/01/\(id).thumb.jpg")
            #expect(asset.sha256 == (try sha256sum(bytes)))
            #expect(try library.verify().isClean)
        }
    }

    @Test("a take killed before its first byte leaves an empty file: repair removes it instead of keeping it in Damaged/")
    func emptyTakeIsRemoved() async throws {
        try await withLibrary { library in
            let partial = "2025/06/01/20250601-123456789-0123456789ab.mp4.partial"
            let folder = library.directory.appendingPathComponent("2025/06/01")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: library.directory.appendingPathComponent(partial).path, contents: Data()))
            let validator = ValidatorDouble(.success(nil))
            let repair = try library.repair(validateMovie: validator.validate)
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path)" } == ["removedIncomplete \(partial)"])
            #expect(repair.actions.first?.detail == "removed an empty file: a take stopped before its first byte was written")
            #expect(validator.paths.isEmpty, "nothing to validate in an empty file")
            #expect(allFiles(under: folder).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: library.directory.appendingPathComponent("Damaged").path))
            #expect(try library.verify().isClean)
        }
    }

    @Test("an orphan movie in which nothing plays moves to Damaged/, and a thumbnail without a movie to Unrecognised/")
    func unplayableOrphanAndLoneThumbnail() async throws {
        try await withLibrary { library in
            let folder = library.directory.appendingPathComponent("2025/06/01")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(TakeDouble.bytes(100)).write(to: folder.appendingPathComponent("broken.mp4"))
            try TakeDouble.thumbnail.write(to: folder.appendingPathComponent("gone.thumb.jpg"))
            let repair = try library.repair(validateMovie: ValidatorDouble(.success(nil)).validate)
            #expect(Set(repair.actions.map { "\($0.kind.rawValue) \($0.detail)" }) == [
                "setAsideRecording a movie in which nothing plays; moved to Damaged/2025/06/01/broken.mp4",
                "quarantined a thumbnail without its movie; moved to Unrecognised/2025/06/01/gone.thumb.jpg",
            ])
            #expect(try Data(contentsOf: library.directory.appendingPathComponent("Damaged/2025/06/01/broken.mp4"))
                == Data(TakeDouble.bytes(100)))
            #expect(allFiles(under: folder).isEmpty)
            #expect(try library.verify().isClean)
        }
    }

    @Test("a validator's figures the catalogue cannot hold leave the take unrepaired rather than catalogued wrong")
    func implausibleFacts() async throws {
        try await Self.withUnfinishedTake { library, _, _ in
            let facts = MovieFacts(width: 0, height: 0, duration: .nan, frameCount: -1, videoCodec: "", audioCodec: nil)
            let repair = try library.repair(validateMovie: ValidatorDouble(.success(facts)).validate)
            #expect(repair.actions.isEmpty && repair.unrepaired.map(\.kind) == [.unfinishedRecording])
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }
}
