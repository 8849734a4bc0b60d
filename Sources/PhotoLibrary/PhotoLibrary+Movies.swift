import CameraSystem
import Foundation

extension PhotoLibrary {
    /// Reserves the place of a new movie for the recorder: the dated folder for `createdAt` is
    /// made, a fresh id chosen and the empty `ID.mp4.partial` created and locked (see
    /// `MovieReservation`), with the room to catalogue the take held beside it. Throws `.readOnly`
    /// or `.insufficientSpace` before the take starts when the library cannot take a file.
    public func reserveMoviePath(createdAt: Date = Date()) throws(PhotoLibraryError) -> MovieReservation {
        let room = try checkCapacity(forBytes: Int(MovieReservation.catalogueRoom)).reserveBytes + MovieReservation.catalogueRoom
        let created = Date(millisecondsSince1970: createdAt.millisecondsSince1970)
        let folder = layout.folder(for: created)
        let id = layout.makeID(for: created)
        try PhotoLibraryError.catching { () throws(SystemCallError) in try FileOperations.createDirectories(folder, under: directory.path) }
        do {
            return try MovieReservation(id: id, createdAt: created, relativePath: "\(folder)/\(id).\(LibraryLayout.movieExtension)",
                                        libraryDirectory: directory.path, roomBytes: room)
        } catch {
            throw PhotoLibraryError(error).explained("the take cannot start: the library holds \(Self.size(room)) to catalogue it, "
                + "and the disk must have that free")
        }
    }

    /// Catalogues the saved take of `reservation`, which the recorder has validated, flushed and
    /// renamed to `reservation.path`, and returns its entry.
    ///
    /// In order: the arguments are checked, the reservation's room is given back and the free
    /// space for the thumbnail checked, the movie's bytes are hashed, the thumbnail (when given) is
    /// written atomically as `ID.thumb.jpg` beside it, and then the row is committed in one
    /// transaction. The movie file itself is never removed: when a later step fails, the thumbnail
    /// is taken back out, no row is left, and the error says the recording is kept at its path,
    /// where `repair(validateMovie:)` catalogues it.
    ///
    /// - Parameters:
    ///   - facts: what the file holds, as the recorder's validation read it.
    ///   - stopReason: why the take ended, its identifier (`MovieRecording.StopReason`), e.g. "maximumDuration".
    ///   - thumbnail: a small JPEG of the take, stored as it is.
    public func addMovie(_ reservation: MovieReservation, facts: MovieFacts, stopReason: String,
                         thumbnail: Data? = nil) throws(PhotoLibraryError) -> Asset {
        try facts.validate()
        guard !stopReason.isEmpty else {
            throw PhotoLibraryError(.invalidArgument, "the stop reason is empty — pass why the take ended, e.g. \"stopped\"")
        }
        guard reservation.libraryDirectory == directory.path else {
            throw PhotoLibraryError(.invalidArgument, "the reservation of \(reservation.path) belongs to the library "
                + "\(reservation.libraryDirectory), not \(directory.path) — add the movie to the library that reserved it")
        }
        let path = reservation.path
        let relativePath = reservation.relativePath
        guard try PhotoLibraryError.catching({ () throws(SystemCallError) in try FileOperations.entryKind(path) }) == .regularFile else {
            throw PhotoLibraryError(.invalidArgument, "no recording at \(path) — save the take (rename "
                + "\(reservation.partialPath) to it) before adding it")
        }
        guard try withCatalog({ catalog throws(SQLiteError) in try catalog.asset(path: relativePath) }) == nil else {
            throw PhotoLibraryError(.invalidArgument, "the movie \(path) is catalogued already — add each take once")
        }
        reservation.releaseRoom()
        try checkCapacity(forBytes: thumbnail?.count ?? 0)
        let digest = try PhotoLibraryError.catching { () throws(SystemCallError) in try FileOperations.digest(ofFileAt: path) }
        let thumbnailPath = thumbnail.map { _ in LibraryLayout.thumbnail(forMovie: relativePath) }
        let movie = Asset.Movie(duration: facts.duration, frameCount: facts.frameCount, videoCodec: facts.videoCodec,
                                audioCodec: facts.audioCodec, stopReason: stopReason, recovered: false,
                                thumbnailPath: thumbnailPath)
        let asset = Asset(movieID: reservation.id, path: relativePath, createdAt: reservation.createdAt, facts: facts,
                          digest: digest, movie: movie)
        var pending: PendingFile?
        if let thumbnail, let thumbnailPath {
            do {
                pending = try writeThumbnail(thumbnail, at: thumbnailPath)
            } catch {
                throw PhotoLibraryError(error).explained("the movie \(path) was not catalogued: its thumbnail could not be "
                    + "written, so the recording is kept uncatalogued at that path")
            }
        }
        do {
            try withCatalog { catalog throws(SQLiteError) in try catalog.insert(asset) }
        } catch {
            // Should this removal fail, `repair` gives the thumbnail back to the movie once it catalogues it.
            if let thumbnailPath { try? FileOperations.remove(absolutePath(thumbnailPath)) }
            throw error.explained("the movie \(path) was not catalogued: its catalogue row could not be committed, so "
                + "its thumbnail was removed again and the recording is kept uncatalogued at that path")
        }
        // The thumbnail stays locked until its row is committed, so `verify` never takes it for an orphan.
        withExtendedLifetime(pending) {}
        return asset
    }

    /// The thumbnail of a movie asset, when it has one.
    public func thumbnailURL(for asset: Asset) -> URL? {
        asset.movie?.thumbnailPath.map { directory.appendingPathComponent($0, isDirectory: false) }
    }

    /// Writes `bytes` atomically to the library-relative `path`, returning the locked file.
    private func writeThumbnail(_ bytes: Data, at path: String) throws(SystemCallError) -> PendingFile {
        let name = (path as NSString).lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        let pending = try PendingFile(temporaryPath: absolutePath("\(folder)/\(LibraryLayout.temporaryName(for: name))"),
                                      finalPath: absolutePath(path))
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try pending.publish(buffer) } }.get()
        return pending
    }
}

extension Asset {
    /// A movie asset in the state `ok`, its file `digest` measured by the library.
    init(movieID id: String, path: String, createdAt: Date, facts: MovieFacts,
         digest: (sha256: String, byteCount: Int), movie: Movie) {
        self.init(id: id, kind: .movie, path: path, createdAt: createdAt, width: facts.width, height: facts.height,
                  byteCount: digest.byteCount, exposure: nil, meteringStatistics: nil, sha256: digest.sha256,
                  state: .ok, movie: movie)
    }
}
