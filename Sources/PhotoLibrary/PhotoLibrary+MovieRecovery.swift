import CameraSystem
import Foundation

/// What a movie validator said of a file `repair` found.
private enum MovieCheck {
    case playable(MovieFacts)
    /// Nothing in it plays.
    case unplayable
    /// The validator could not tell (it threw, or gave figures the catalogue cannot hold).
    case unknown
}

extension PhotoLibrary {
    /// Saves the unfinished recording at `path` (`YYYY/MM/DD/ID.mp4.partial`), which no live
    /// recorder holds: a take that plays is renamed to `ID.mp4` (or `ID-SUFFIX.mp4` when that name
    /// is taken) and catalogued as recovered; one in which nothing plays moves to `Damaged/`. Nil,
    /// leaving it as it is, without a validator or when the validator cannot tell.
    func recoverRecording(_ path: String, validateMovie: ((String) throws -> MovieFacts?)?)
        throws(PhotoLibraryError) -> RepairReport.Action? {
        try recoverAbandoned(path, validateMovie, unplayable: "an unfinished recording in which nothing plays") {
            (facts, lock) throws(PhotoLibraryError) -> RepairReport.Action in
            let moviePath = try unusedMoviePath(String(path.dropLast(LibraryLayout.partialSuffix.count)))
            do throws(SystemCallError) {
                try FileOperations.move(absolutePath(path), to: absolutePath(moviePath))
            } catch {
                throw PhotoLibraryError(error).explained("cannot rename the unfinished recording \(path) to \(moviePath)")
            }
            let asset = try catalogueRecoveredMovie(moviePath, facts: facts, lock: lock)
            return RepairReport.Action(kind: .recoveredRecording, path: path, assetID: asset.id,
                                       detail: "renamed to \(moviePath) and catalogued as recovered: \(Self.summary(facts))")
        }
    }

    /// Catalogues the orphan movie at `path` as recovered when it plays (its row was lost, e.g. to
    /// a crash between the recorder's rename and `addMovie`), else moves it to `Damaged/`. Nil,
    /// leaving it as it is, without a validator, when the validator cannot tell, or when a writer
    /// holds it.
    func adoptOrphanMovie(_ path: String, validateMovie: ((String) throws -> MovieFacts?)?)
        throws(PhotoLibraryError) -> RepairReport.Action? {
        try recoverAbandoned(path, validateMovie, unplayable: "a movie in which nothing plays") {
            (facts, lock) throws(PhotoLibraryError) -> RepairReport.Action in
            let asset = try catalogueRecoveredMovie(path, facts: facts, lock: lock)
            return RepairReport.Action(kind: .catalogued, path: path, assetID: asset.id,
                                       detail: "a movie catalogued as recovered: \(Self.summary(facts))")
        }
    }

    /// The part recovering a take and adopting an orphan movie share: when no writer holds `path`,
    /// an empty file is removed (a take killed before its first byte holds nothing to keep), else
    /// the validator's verdict — `catalogue` for a playable file, `Damaged/` for an unplayable one
    /// (`unplayable` says why), nil when it cannot tell.
    private func recoverAbandoned(_ path: String, _ validateMovie: ((String) throws -> MovieFacts?)?, unplayable: String,
                                  catalogue: (MovieFacts, FileLock) throws(PhotoLibraryError) -> RepairReport.Action)
        throws(PhotoLibraryError) -> RepairReport.Action? {
        guard let validateMovie, case .abandoned(let lock) = try ownership(of: path) else { return nil }
        return try withExtendedLifetime(lock) { () throws(PhotoLibraryError) -> RepairReport.Action? in
            if try PhotoLibraryError.catching({ () throws(SystemCallError) in try lock.isEmpty() }) {
                return try removeEmpty(path)
            }
            switch check(path, validateMovie) {
            case .unknown: return nil
            case .unplayable: return try moveAside(path, into: LibraryLayout.damagedFolder, because: unplayable, as: .setAsideRecording)
            case .playable(let facts): return try catalogue(facts, lock)
            }
        }
    }

    /// Gives the orphan thumbnail at `path` to the catalogued movie beside it when that has none,
    /// else moves it to `Unrecognised/`; nil while that movie's file is there uncatalogued (a
    /// later repair catalogues the movie first) or when a writer holds the thumbnail.
    func adoptThumbnail(_ path: String) throws(PhotoLibraryError) -> RepairReport.Action? {
        guard case .abandoned(let lock) = try ownership(of: path) else { return nil }
        return try withExtendedLifetime(lock) { () throws(PhotoLibraryError) -> RepairReport.Action? in
            let moviePath = LibraryLayout.movie(forThumbnail: path)
            let movie = try withCatalog { catalog throws(SQLiteError) in try catalog.asset(path: moviePath) }
            if let movie, movie.kind == .movie, movie.movie?.thumbnailPath == nil {
                try withCatalog { catalog throws(SQLiteError) in try catalog.setThumbnail(path, movieID: movie.id) }
                return RepairReport.Action(kind: .attachedThumbnail, path: path, assetID: movie.id,
                                           detail: "given to the movie \(moviePath), which had no thumbnail")
            }
            let waitingMovie = try PhotoLibraryError.catching { () throws(SystemCallError) -> Bool in
                let movieFile = try FileOperations.entryKind(absolutePath(moviePath))
                let partialFile = try FileOperations.entryKind(absolutePath(moviePath + LibraryLayout.partialSuffix))
                return movieFile != nil || partialFile != nil
            }
            guard movie != nil || !waitingMovie else { return nil }
            return try moveAside(path, into: LibraryLayout.unrecognizedFolder, because: "a thumbnail without its movie",
                                 as: .quarantined)
        }
    }

    /// Removes the empty movie file at `path`, held by its caller's lock.
    private func removeEmpty(_ path: String) throws(PhotoLibraryError) -> RepairReport.Action {
        do {
            try FileOperations.remove(absolutePath(path))
        } catch {
            throw PhotoLibraryError(error).explained("cannot remove the empty file \(path)")
        }
        return RepairReport.Action(kind: .removedIncomplete, path: path, assetID: nil,
                                   detail: "removed an empty file: a take stopped before its first byte was written")
    }

    /// Asks `validateMovie` about the file at the relative `path`.
    private func check(_ path: String, _ validateMovie: (String) throws -> MovieFacts?) -> MovieCheck {
        let answer: MovieFacts?
        do {
            answer = try validateMovie(absolutePath(path))
        } catch {
            return .unknown
        }
        guard let facts = answer else { return .unplayable }
        return (try? facts.validate()) == nil ? .unknown : .playable(facts)
    }

    /// Catalogues the movie at `path`, held under `lock`, as recovered: SHA-256 computed, started
    /// `facts.duration` before its last modification, its name (without `.mp4`) as its id unless
    /// that id is taken.
    private func catalogueRecoveredMovie(_ path: String, facts: MovieFacts, lock: FileLock) throws(PhotoLibraryError) -> Asset {
        let (digest, modified) = try PhotoLibraryError.catching { () throws(SystemCallError) in
            (try FileOperations.digest(ofFileAt: absolutePath(path)), try lock.modificationTime())
        }
        let created = Date(millisecondsSince1970: Date(timeIntervalSince1970: modified - facts.duration).millisecondsSince1970)
        let stem = String((path as NSString).lastPathComponent.dropLast(LibraryLayout.movieExtension.count + 1))
        let movie = Asset.Movie(duration: facts.duration, frameCount: facts.frameCount, videoCodec: facts.videoCodec,
                                audioCodec: facts.audioCodec, stopReason: Asset.Movie.recoveredStopReason, recovered: true,
                                thumbnailPath: nil)
        return try withCatalog { catalog throws(SQLiteError) -> Asset in
            let asset = Asset(movieID: try adoptedID(stem, createdAt: created, in: catalog), path: path, createdAt: created,
                              facts: facts, digest: digest, movie: movie)
            try catalog.insert(asset)
            return asset
        }
    }

    /// `path` when nothing is there, else the same name with a random suffix before `.mp4`.
    private func unusedMoviePath(_ path: String) throws(PhotoLibraryError) -> String {
        let isTaken = try PhotoLibraryError.catching { () throws(SystemCallError) in
            try FileOperations.entryKind(absolutePath(path)) != nil
        }
        guard isTaken else { return path }
        return String(path.dropLast(LibraryLayout.movieExtension.count + 1))
            + "-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).\(LibraryLayout.movieExtension)"
    }

    /// A take's figures in words, e.g. "1920×1080, 12.0 s, 360 frames, h264 + aac".
    private static func summary(_ facts: MovieFacts) -> String {
        "\(facts.width)×\(facts.height), \((facts.duration * 10).rounded() / 10) s, \(facts.frameCount) frames, "
            + facts.videoCodec + (facts.audioCodec.map { " + \($0)" } ?? ", no sound")
    }
}
