import CameraSystem
import Foundation

extension PhotoLibrary {
    /// Makes the catalogue and the files agree again, losing no photo or movie:
    /// - an orphan file that is a complete JPEG (SOI … EOI) gets a row: dimensions from its frame
    ///   header, SHA-256 computed, created at its modification time, exposure unknown; its name
    ///   (without extension) becomes its id unless that id is taken;
    /// - an orphan that is not a complete JPEG moves to `Unrecognised/` under the same relative path;
    /// - an unfinished recording (`ID.mp4.partial`) or an orphan `.mp4` is checked with
    ///   `validateMovie` (see `PhotoLibrary+MovieRecovery`): one that plays is given its final
    ///   name and catalogued as recovered, one in which nothing plays moves to `Damaged/`; without
    ///   a validator both are left as they are, in `unrepaired`;
    /// - an orphan thumbnail is given to the catalogued movie beside it when that has none, else
    ///   moved to `Unrecognised/` (it waits while its movie is there but not yet catalogued);
    /// - an orphan DNG is given, likewise, to the catalogued photo beside it (`ID.jpg`), making
    ///   them a RAW + JPEG pair again, else moved to `Unrecognised/`;
    /// - a temporary file of an interrupted write is removed (its bytes never reached a final name);
    /// - a row whose file is gone is marked `missing`, one whose bytes changed `damaged`, and one
    ///   marked so earlier whose intact file is back `ok`. Rows are never deleted, so the catalogue
    ///   keeps a record (id, time, hash) of what was lost and recognises a restored file.
    ///
    /// Unreadable files are left alone and listed in `unrepaired`. Afterwards `verify()` is clean
    /// unless something is unrepaired.
    /// Throws `.readOnly` at once, changing nothing, when the library is read-only.
    ///
    /// - Parameter validateMovie: reads the movie file at an absolute path and returns what it
    ///   holds, nil when nothing in it plays; it throws when it cannot tell (the file is then left
    ///   as it is). The movie layer supplies it: the library never opens a movie itself.
    public func repair(validateMovie: ((String) throws -> MovieFacts?)? = nil) throws(PhotoLibraryError) -> RepairReport {
        guard !isReadOnly else {
            throw PhotoLibraryError(.readOnly, "cannot repair the photo library \(directory.path): it is read-only")
        }
        var actions: [RepairReport.Action] = []
        var unrepaired: [VerificationReport.Issue] = []
        let issues = try verify().issues
        // Thumbnails and DNGs last, so that one finds the movie or photo a repair has just catalogued.
        let companions: Set<VerificationReport.IssueKind> = [.orphanThumbnail, .orphanRawFile]
        for issue in issues.filter({ !companions.contains($0.kind) }) + issues.filter({ companions.contains($0.kind) }) {
            let action: RepairReport.Action? = switch issue.kind {
            case .missingFile: try mark(issue, .missing, as: .markedMissing)
            case .hashMismatch: try mark(issue, .damaged, as: .markedDamaged)
            case .restoredFile: try mark(issue, .ok, as: .markedOK)
            case .orphanFile where LibraryLayout.isMovie(issue.path): try adoptOrphanMovie(issue.path, validateMovie: validateMovie)
            case .orphanFile: try adoptOrphan(issue.path)
            case .incompleteFile: try removeIncomplete(issue.path)
            case .unfinishedRecording: try recoverRecording(issue.path, validateMovie: validateMovie)
            case .orphanThumbnail: try adoptThumbnail(issue.path)
            case .orphanRawFile: try adoptRaw(issue.path)
            case .unreadableFile: nil
            }
            if let action { actions.append(action) } else { unrepaired.append(issue) }
        }
        return RepairReport(directory: directory.path, actions: actions, unrepaired: unrepaired)
    }

    /// Records the state `verify` observed for the issue's asset.
    private func mark(_ issue: VerificationReport.Issue, _ state: Asset.State,
                      as kind: RepairReport.ActionKind) throws(PhotoLibraryError) -> RepairReport.Action? {
        guard let id = issue.assetID else { return nil }
        try withCatalog { catalog throws(SQLiteError) in try catalog.setState(state, id: id) }
        return RepairReport.Action(kind: kind, path: issue.path, assetID: id, detail: issue.detail)
    }

    /// Catalogues the orphan at `path` if it is a complete JPEG, else quarantines it; nil when a
    /// writer took it over or it cannot be read.
    private func adoptOrphan(_ path: String) throws(PhotoLibraryError) -> RepairReport.Action? {
        guard case .abandoned(let lock) = try ownership(of: path) else { return nil }
        return try withExtendedLifetime(lock) { () throws(PhotoLibraryError) -> RepairReport.Action? in
            let bytes: [UInt8]
            let modified: Double
            do {
                bytes = try lock.readAll()
                modified = try lock.modificationTime()
            } catch {
                return nil
            }
            guard let jpeg = JPEGStructure(bytes) else {
                return try moveAside(path, into: LibraryLayout.unrecognizedFolder, because: "not a complete JPEG", as: .quarantined)
            }
            let created = Date(millisecondsSince1970: Date(timeIntervalSince1970: modified).millisecondsSince1970)
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let sha256 = bytes.withUnsafeBytes { SHA256.hash($0).hexadecimal }
            let asset = try withCatalog { catalog throws(SQLiteError) -> Asset in
                let id = try adoptedID(stem, createdAt: created, in: catalog)
                let asset = Asset(id: id, kind: .photo, path: path, createdAt: created, width: jpeg.width,
                                  height: jpeg.height, byteCount: bytes.count, exposure: nil,
                                  meteringStatistics: nil, sha256: sha256, state: .ok)
                try catalog.insert(asset)
                return asset
            }
            return RepairReport.Action(kind: .catalogued, path: path, assetID: asset.id,
                                       detail: "a \(jpeg.width)×\(jpeg.height) JPEG of \(bytes.count) bytes")
        }
    }

    /// Gives the orphan DNG at `path` to the catalogued photo beside it (`ID.jpg`) when that has
    /// none, else quarantines it; nil when a writer took it over, it cannot be read, or its photo is
    /// there but not catalogued yet.
    private func adoptRaw(_ path: String) throws(PhotoLibraryError) -> RepairReport.Action? {
        guard case .abandoned(let lock) = try ownership(of: path) else { return nil }
        return try withExtendedLifetime(lock) { () throws(PhotoLibraryError) -> RepairReport.Action? in
            let photoPath = String(path.dropLast(LibraryLayout.rawExtension.count)) + "jpg"
            let photo = try withCatalog { catalog throws(SQLiteError) in try catalog.asset(path: photoPath) }
            if let photo, photo.kind == .photo, photo.raw == nil {
                guard let digest = try? FileOperations.digest(ofFileAt: absolutePath(path)) else { return nil }
                let raw = Asset.Raw(path: path, byteCount: digest.byteCount, sha256: digest.sha256)
                try withCatalog { catalog throws(SQLiteError) in try catalog.setRaw(raw, photoID: photo.id) }
                return RepairReport.Action(kind: .attachedRaw, path: path, assetID: photo.id,
                                           detail: "given to the photo \(photoPath), which had no DNG")
            }
            let waitingPhoto = try PhotoLibraryError.catching { () throws(SystemCallError) in
                try FileOperations.entryKind(absolutePath(photoPath)) != nil
            }
            guard photo != nil || !waitingPhoto else { return nil }
            return try moveAside(path, into: LibraryLayout.unrecognizedFolder, because: "a DNG without its photo", as: .quarantined)
        }
    }

    /// Moves the file at `path` to the same relative path under `folder`, adding a random suffix
    /// when that name is taken; the action says it was moved `because` of what.
    func moveAside(_ path: String, into folder: String, because reason: String,
                   as kind: RepairReport.ActionKind) throws(PhotoLibraryError) -> RepairReport.Action {
        var destination = "\(folder)/\(path)"
        do {
            try FileOperations.createDirectories((destination as NSString).deletingLastPathComponent, under: directory.path)
            if try FileOperations.entryKind(absolutePath(destination)) != nil {
                destination += "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            }
            try FileOperations.move(absolutePath(path), to: absolutePath(destination))
        } catch {
            throw PhotoLibraryError(error).explained("cannot move \(path) (\(reason)) to \(destination)")
        }
        return RepairReport.Action(kind: kind, path: path, assetID: nil, detail: "\(reason); moved to \(destination)")
    }

    /// Removes the temporary file at `path` if no live writer holds it.
    private func removeIncomplete(_ path: String) throws(PhotoLibraryError) -> RepairReport.Action? {
        guard case .abandoned(let lock) = try ownership(of: path) else { return nil }
        do {
            try withExtendedLifetime(lock) { () throws(SystemCallError) in try FileOperations.remove(absolutePath(path)) }
        } catch {
            throw PhotoLibraryError(error).explained("cannot remove the temporary file \(path)")
        }
        return RepairReport.Action(kind: .removedIncomplete, path: path, assetID: nil,
                                   detail: "removed a temporary file left by an interrupted write")
    }

    /// The id of a file `repair` catalogues: its name's `stem` when that may serve as an id and
    /// is free, else a fresh one for `createdAt`.
    func adoptedID(_ stem: String, createdAt: Date, in catalog: Catalog) throws(SQLiteError) -> String {
        let stemIsFree = try Self.isUsableID(stem) ? catalog.asset(id: stem) == nil : false
        return stemIsFree ? stem : layout.makeID(for: createdAt)
    }

    /// Whether a file name may serve as an asset id: 1–128 ASCII letters, digits, `-` or `_`.
    private static func isUsableID(_ name: String) -> Bool {
        (1...128).contains(name.utf8.count)
            && name.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
