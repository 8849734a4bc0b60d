import Foundation
import PhotoLibrary
import Testing

@Suite struct MovieAddTests {
    @Test("a reservation makes the dated folder, a fresh id, an empty locked partial file beside the final path and the room to catalogue it")
    func reservation() async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            #expect(reservation.id.wholeMatch(of: /20250601-123456789-[0-9a-f]{12}/) != nil)
            #expect(reservation.createdAt == AddAndListTests.created)
            #expect(reservation.path == "\(library.directory.path)/2025/06/01/\(reservation.id).mp4")
            #expect(reservation.partialPath == reservation.path + ".partial")
            #expect(allFiles(under: library.directory.appendingPathComponent("2025"))
                == ["06/01/.tmp-\(reservation.id).room", "06/01/\(reservation.id).mp4.partial"])
            // The room: the volume's reserve (at most 64 MiB, 1% of it) and 256 KiB for the thumbnail and the row.
            let room = library.directory.appendingPathComponent("2025/06/01/.tmp-\(reservation.id).room").path
            let volume = try FileManager.default.attributesOfFileSystem(forPath: library.directory.path)
            let reserve = min(64 << 20, (volume[.systemSize] as? Int ?? 0) / 100)
            #expect(try FileManager.default.attributesOfItem(atPath: room)[.size] as? Int == reserve + 256 << 10)
            let report = try library.verify()
            #expect(report.isClean && report.inProgressCount == 1 && report.fileCount == 0)
        }
    }

    @Test("a take being recorded, or saved and not yet added, is in progress while its reservation lives: repair leaves it alone")
    func liveTakeIsLeftAlone() async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            let validator = ValidatorDouble(.success(TakeDouble.facts))
            try TakeDouble.record(TakeDouble.bytes(), into: reservation)
            func expectLeftAlone(_ stage: Comment) throws {
                let report = try library.verify()
                #expect(report.isClean && report.inProgressCount == 1, stage)
                #expect(try library.repair(validateMovie: validator.validate).actions.isEmpty, stage)
            }
            try expectLeftAlone("while recording")
            try FileManager.default.moveItem(atPath: reservation.partialPath, toPath: reservation.path)
            try expectLeftAlone("saved, not yet added")
            #expect(validator.paths.isEmpty)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025"))
                == ["06/01/.tmp-\(reservation.id).room", "06/01/\(reservation.id).mp4"])
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }

    @Test("a reservation released before the recorder wrote a byte leaves no file behind")
    func unusedReservation() async throws {
        try await withLibrary { library in
            _ = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")).isEmpty)
            #expect(try library.verify().isClean)
        }
    }

    @Test("an added movie comes back from list, asset(id:) and a reopened library with its movie fields and thumbnail")
    func roundTrip() async throws {
        let bytes = TakeDouble.bytes()
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(bytes, into: reservation)
            let asset = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "maximumDuration",
                                             thumbnail: TakeDouble.thumbnail)
            #expect(asset.id == reservation.id && asset.kind == .movie)
            #expect(asset.path == "2025/06/01/\(asset.id).mp4" && asset.createdAt == AddAndListTests.created)
            #expect([asset.width, asset.height, asset.byteCount] as [Int] == [1920, 1080, bytes.count])
            #expect(asset.sha256 == (try sha256sum(bytes)))
            #expect(asset.exposure == nil && asset.meteringStatistics == nil && asset.state == .ok)
            let movie = try #require(asset.movie)
            #expect(movie.duration == 12 && movie.frameCount == 360 && movie.videoCodec == "h264" && movie.audioCodec == "aac")
            #expect(movie.stopReason == "maximumDuration" && !movie.recovered)
            #expect(movie.thumbnailPath == "2025/06/01/\(asset.id).thumb.jpg")
            #expect(try Data(contentsOf: try #require(library.thumbnailURL(for: asset))) == TakeDouble.thumbnail)
            #expect(try Data(contentsOf: library.fileURL(for: asset)) == Data(bytes))

            #expect(try library.list() == [asset])
            #expect(try library.asset(id: asset.id) == asset)
            #expect(try PhotoLibrary(opening: library.directory, timeZone: .gmt).list() == [asset])
            let report = try library.verify()
            #expect(report.isClean && report.assetCount == 1 && report.fileCount == 1 && report.inProgressCount == 0)
        }
    }

    @Test("photos and movies list together, oldest first, each with its kind")
    func mixedList() async throws {
        try await withLibrary { library in
            let photo = try library.add([1, 2, 3], createdAt: AddAndListTests.created + 60, width: 1, height: 1)
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(TakeDouble.bytes(), into: reservation)
            let movie = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped")
            #expect(try library.list() == [movie, photo])
            #expect(try library.list().map(\.kind) == [.movie, .photo])
            #expect(movie.movie?.thumbnailPath == nil && library.thumbnailURL(for: movie) == nil)
            #expect(try library.verify().isClean)
        }
    }

    @Test("a movie encodes to JSON with its kind and a movie object, a photo with movie null")
    func jsonShape() async throws {
        try await withLibrary { library in
            let photo = try library.add([0xFF, 0xD8, 0xFF, 0xD9], createdAt: AddAndListTests.created, width: 8, height: 6)
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(TakeDouble.bytes(), into: reservation)
            let movie = try library.addMovie(reservation, facts: MovieFacts(width: 640, height: 480, duration: 2.5,
                                                                            frameCount: 75, videoCodec: "h264", audioCodec: nil),
                                             stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(movie)) as? [String: Any])
            #expect(Set(json.keys) == ["id", "kind", "path", "createdAt", "width", "height", "byteCount", "exposure",
                                       "meteringStatistics", "sha256", "state", "movie", "raw"])
            #expect(json["kind"] as? String == "movie" && json["exposure"] is NSNull)
            let fields = try #require(json["movie"] as? [String: Any])
            #expect(Set(fields.keys) == ["duration", "frames", "video", "audio", "stopReason", "recovered", "thumbnailPath"])
            #expect(fields["duration"] as? Double == 2.5 && fields["frames"] as? Int == 75)
            #expect(fields["video"] as? String == "h264" && fields["audio"] is NSNull)
            #expect(fields["stopReason"] as? String == "stopped" && fields["recovered"] as? Bool == false)
            #expect(fields["thumbnailPath"] as? String == movie.movie?.thumbnailPath)
            #expect(try JSONDecoder().decode(Asset.self, from: JSONEncoder().encode(movie)) == movie)
            let photoJSON = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(photo)) as? [String: Any])
            #expect(photoJSON["kind"] as? String == "photo" && photoJSON["movie"] is NSNull)
        }
    }

    @Test("bad arguments are refused, naming the value, and leave the take where it is with no thumbnail or row", arguments: [
        (MovieFacts(width: 0, height: 1080, duration: 1, frameCount: 30, videoCodec: "h264", audioCodec: nil), "stopped", true, "0×1080"),
        (MovieFacts(width: 8, height: 8, duration: -.infinity, frameCount: 30, videoCodec: "h264", audioCodec: nil), "stopped", true, "-inf"),
        (MovieFacts(width: 8, height: 8, duration: 1, frameCount: 30, videoCodec: "", audioCodec: nil), "stopped", true, "\"\""),
        (TakeDouble.facts, "", true, "stop reason is empty"),
        (TakeDouble.facts, "stopped", false, ".mp4.partial to it"),
    ])
    func invalidArguments(facts: MovieFacts, stopReason: String, saved: Bool, named: String) async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            let bytes = TakeDouble.bytes()
            if saved { try TakeDouble.recordAndSave(bytes, into: reservation) } else { try TakeDouble.record(bytes, into: reservation) }
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.addMovie(reservation, facts: facts, stopReason: stopReason, thumbnail: TakeDouble.thumbnail)
            }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.description.contains(named) == true, "\(String(describing: error))")
            let take = saved ? reservation.path : reservation.partialPath
            #expect(try Data(contentsOf: URL(fileURLWithPath: take)) == Data(bytes))
            #expect(allFiles(under: library.directory.appendingPathComponent("2025"))
                == ["06/01/.tmp-\(reservation.id).room", "06/01/" + (take as NSString).lastPathComponent])
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }

    @Test("a take added twice is refused the second time and the first keeps its thumbnail")
    func addedTwice() async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(TakeDouble.bytes(), into: reservation)
            let asset = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: Data([1, 2]))
            }
            #expect(error?.kind == .invalidArgument && error?.description.contains("catalogued already") == true)
            #expect(try Data(contentsOf: try #require(library.thumbnailURL(for: asset))) == TakeDouble.thumbnail)
            #expect(try library.list() == [asset] && library.verify().isClean)
        }
    }

    @Test("a movie whose bytes changed is a hash mismatch that repair marks damaged, keeping the file")
    func hashMismatch() async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            var bytes = TakeDouble.bytes()
            try TakeDouble.recordAndSave(bytes, into: reservation)
            let asset = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
            bytes[20_000] ^= 0x40
            try Data(bytes).write(to: library.fileURL(for: asset))
            let issues = try library.verify().issues
            #expect(issues.map(\.kind) == [.hashMismatch] && issues.first?.assetID == asset.id)
            #expect(issues.first?.detail == "SHA-256 \(try sha256sum(bytes)) (\(bytes.count) bytes), catalogued \(asset.sha256) (\(bytes.count) bytes)")
            #expect(try library.repair(validateMovie: { _ in TakeDouble.facts }).actions.map(\.kind) == [.markedDamaged])
            #expect(try library.asset(id: asset.id).state == .damaged)
            #expect(try Data(contentsOf: library.fileURL(for: asset)) == Data(bytes))
            #expect(try library.verify().isClean)
        }
    }

    @Test("a movie whose file is gone is reported missing and marked so by repair; its thumbnail is still its own, not an orphan")
    func missingMovie() async throws {
        try await withLibrary { library in
            let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
            try TakeDouble.recordAndSave(TakeDouble.bytes(), into: reservation)
            let asset = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
            try FileManager.default.removeItem(at: library.fileURL(for: asset))
            #expect(try library.verify().issues.map { "\($0.kind.rawValue) \($0.path)" } == ["missingFile \(asset.path)"])
            #expect(try library.repair(validateMovie: { _ in TakeDouble.facts }).actions.map(\.kind) == [.markedMissing])
            #expect(try library.asset(id: asset.id).state == .missing)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")) == ["06/01/\(asset.id).thumb.jpg"])
            #expect(try library.verify().isClean)
        }
    }
}
