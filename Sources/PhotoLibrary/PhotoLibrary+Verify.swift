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
            let (observed, issue) = inspect(asset)
            if observed != asset.state {
                issues.append(issue)
            } else if observed != .ok {
                recordedProblems.append(issue)
            }
        }
        var inProgress = 0
        let cataloguedPaths = Set(assets.map(\.path))
        let thumbnailPaths = Set(assets.compactMap(\.movie?.thumbnailPath))
        let candidates = scan.files.filter { !cataloguedPaths.contains($0) }
            .map { ($0, VerificationReport.IssueKind.orphanFile) } + scan.temporaries.map { ($0, .incompleteFile) }
            + scan.partialRecordings.map { ($0, .unfinishedRecording) }
            + scan.thumbnails.filter { !thumbnailPaths.contains($0) }.map { ($0, .orphanThumbnail) }
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
        default: "a file without a catalogue row"
        }
    }

    /// The state `asset`'s file is in now (nil when it cannot be read), and the issue to report
    /// when that is not its recorded state.
    private func inspect(_ asset: Asset) -> (Asset.State?, VerificationReport.Issue) {
        let path = absolutePath(asset.path)
        func issue(_ kind: VerificationReport.IssueKind, _ detail: String) -> VerificationReport.Issue {
            VerificationReport.Issue(kind: kind, path: asset.path, assetID: asset.id, detail: detail)
        }
        do {
            guard try FileOperations.entryKind(path) != nil else {
                return (.missing, issue(.missingFile, "the catalogued file is not there"))
            }
            let digest = try FileOperations.digest(ofFileAt: path)
            guard digest.sha256 == asset.sha256 else {
                return (.damaged, issue(.hashMismatch, "SHA-256 \(digest.sha256) (\(digest.byteCount) bytes), "
                    + "catalogued \(asset.sha256) (\(asset.byteCount) bytes)"))
            }
            return (.ok, issue(.restoredFile, "the file is back with its catalogued SHA-256"))
        } catch {
            return (nil, issue(.unreadableFile, "cannot \(error.operation) it: \(error.reason)"))
        }
    }
}
