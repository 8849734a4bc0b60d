extension PhotoLibrary {
    /// Compares the catalogue with the files: every row's file must be there with its SHA-256, every
    /// file in a dated folder must have a row (a thumbnail, a movie's row naming it), and no
    /// temporary file or unfinished recording may be left from a write that never finished. Reads
    /// every file; changes nothing. Files a live writer holds (a photo being saved, a take being
    /// recorded under a `MovieReservation`) are skipped and counted in `inProgressCount`.
    public func verify() throws(PhotoLibraryError) -> VerificationReport {
        // Files first, then rows: a file written meanwhile is either in the rows or still locked.
        let scan = try scanDatedFolders()
        let assets = try list()
        var issues: [VerificationReport.Issue] = []
        var recordedProblems: [VerificationReport.Issue] = []
        for asset in assets {
            let (observed, found) = inspect(asset)
            if observed != asset.state {
                issues += found
            } else if observed != .ok {
                recordedProblems += found
            }
        }
        var inProgress = 0
        let cataloguedPaths = Set(assets.map(\.path))
        let thumbnailPaths = Set(assets.compactMap(\.movie?.thumbnailPath))
        let rawPaths = Set(assets.compactMap(\.raw?.path))
        let candidates = scan.files.filter { !cataloguedPaths.contains($0) }
            .map { ($0, VerificationReport.IssueKind.orphanFile) } + scan.temporaries.map { ($0, .incompleteFile) }
            + scan.partialRecordings.map { ($0, .unfinishedRecording) }
            + scan.thumbnails.filter { !thumbnailPaths.contains($0) }.map { ($0, .orphanThumbnail) }
            + scan.raws.filter { !rawPaths.contains($0) }.map { ($0, .orphanRawFile) }
        for (path, kind) in candidates {
            switch try ownership(of: path) {
            // A take's room to catalogue it is held beside its partial file, which counts for both.
            case .busy: if !LibraryLayout.isCatalogueRoom(path) { inProgress += 1 }
            case .gone, .catalogued: break
            case .unreadable(let reason):
                issues.append(.init(kind: .unreadableFile, path: path, assetID: nil, detail: reason))
            case .abandoned:
                issues.append(.init(kind: kind, path: path, assetID: nil, detail: Self.detail(kind)))
            }
        }
        return VerificationReport(directory: directory.path, assetCount: assets.count, fileCount: scan.files.count,
                                  issues: issues, recordedProblems: recordedProblems, inProgressCount: inProgress)
    }

    /// What an issue found among the files without a row means.
    private static func detail(_ kind: VerificationReport.IssueKind) -> String {
        switch kind {
        case .incompleteFile: "a temporary file left by an interrupted write"
        case .unfinishedRecording: "an unfinished recording: a take that was never saved"
        case .orphanThumbnail: "a thumbnail that no catalogued movie names"
        case .orphanRawFile: "a DNG that no catalogued photo names as its raw file"
        default: "a file without a catalogue row"
        }
    }

    /// The state `asset`'s files are in now (nil when one cannot be read) and the issues to report
    /// when that is not its recorded state. A RAW + JPEG pair is in the worse of its two files'
    /// states (missing before damaged) and reports each file that is not intact, by its path, the
    /// one whose state the pair takes last (so that `repair` records that state).
    private func inspect(_ asset: Asset) -> (Asset.State?, [VerificationReport.Issue]) {
        let primary = inspect(asset.path, sha256: asset.sha256, byteCount: asset.byteCount, of: asset.id)
        guard let raw = asset.raw else { return (primary.state, [primary.issue]) }
        let files = [primary, inspect(raw.path, sha256: raw.sha256, byteCount: raw.byteCount, of: asset.id)]
        let states = files.map(\.state)
        let state: Asset.State? = states.contains(nil) ? nil
            : states.contains(.missing) ? .missing : states.contains(.damaged) ? .damaged : .ok
        guard state != .ok else { return (.ok, [primary.issue]) }
        let failing = files.filter { $0.state != .ok }
        return (state, failing.filter { $0.state != state }.map(\.issue) + failing.filter { $0.state == state }.map(\.issue))
    }

    /// The state of the file at the relative `path`, catalogued for asset `id` with `sha256` and
    /// `byteCount` (nil when it cannot be read), and the issue to report when that is not the
    /// asset's recorded state.
    private func inspect(_ path: String, sha256: String, byteCount: Int,
                         of id: String) -> (state: Asset.State?, issue: VerificationReport.Issue) {
        func issue(_ kind: VerificationReport.IssueKind, _ detail: String) -> VerificationReport.Issue {
            VerificationReport.Issue(kind: kind, path: path, assetID: id, detail: detail)
        }
        do {
            guard try FileOperations.entryKind(absolutePath(path)) != nil else {
                return (.missing, issue(.missingFile, "the catalogued file is not there"))
            }
            let digest = try FileOperations.digest(ofFileAt: absolutePath(path))
            guard digest.sha256 == sha256 else {
                return (.damaged, issue(.hashMismatch, "SHA-256 \(digest.sha256) (\(digest.byteCount) bytes), "
                    + "catalogued \(sha256) (\(byteCount) bytes)"))
            }
            return (.ok, issue(.restoredFile, "the file is back with its catalogued SHA-256"))
        } catch {
            return (nil, issue(.unreadableFile, "cannot \(error.operation) it: \(error.reason)"))
        }
    }
}
