/// What `PhotoLibrary.verify()` found when it compared the catalogue with the files, for
/// `camerasun library verify [--json]`. Field names are stable.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// One disagreement between the catalogue and the disk.
    public typealias Issue = ReportEntry<IssueKind>

    /// What disagrees.
    public enum IssueKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A catalogued asset's file is gone.
        case missingFile
        /// A file's bytes no longer match its catalogued SHA-256.
        case hashMismatch
        /// A file in a dated folder that no catalogue row describes (e.g. written just before a
        /// crash, or copied in by hand).
        case orphanFile
        /// A temporary file left by a write that never finished.
        case incompleteFile
        /// A file that is there but cannot be read (permissions, not a regular file, I/O error).
        case unreadableFile
        /// An asset recorded as missing or damaged whose intact file is back.
        case restoredFile
        /// A take left as `ID.mp4.partial` by a recording that never finished (a crash, a
        /// `kill -9`, a power cut), which no live recorder holds.
        case unfinishedRecording
        /// A movie thumbnail (`ID.thumb.jpg`) that no catalogued movie names.
        case orphanThumbnail
        /// A DNG (`ID.dng`) that no catalogued photo names as the raw file of its RAW + JPEG pair.
        case orphanRawFile
    }

    /// The library directory that was checked.
    public let directory: String
    /// Catalogue rows checked.
    public let assetCount: Int
    /// Complete photo and movie files found in the dated folders (not temporary files, unfinished
    /// recordings, thumbnails or the DNGs of RAW + JPEG pairs).
    public let fileCount: Int
    /// Disagreements that `repair()` acts on; empty for a consistent library.
    public let issues: [Issue]
    /// Assets an earlier repair already recorded as missing or damaged and that still are: the
    /// catalogue agrees with the disk, but the photos are lost or damaged.
    public let recordedProblems: [Issue]
    /// Files skipped because a live writer still holds them (a photo being saved or a movie being
    /// recorded right now).
    public let inProgressCount: Int
    /// Whether the catalogue and the files agree (no issues).
    public let isClean: Bool

    public init(directory: String, assetCount: Int, fileCount: Int, issues: [Issue],
                recordedProblems: [Issue], inProgressCount: Int) {
        self.directory = directory
        self.assetCount = assetCount
        self.fileCount = fileCount
        self.issues = issues
        self.recordedProblems = recordedProblems
        self.inProgressCount = inProgressCount
        isClean = issues.isEmpty
    }
}
