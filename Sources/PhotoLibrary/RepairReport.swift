/// What `PhotoLibrary.repair()` changed, for `camerasun library repair [--json]`. Field names are
/// stable.
public struct RepairReport: Sendable, Hashable, Codable {
    /// One change made to the catalogue or the files.
    public typealias Action = ReportEntry<ActionKind>

    /// What was changed.
    public enum ActionKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An orphan JPEG got a catalogue row (dimensions from its frame header, hash computed,
        /// exposure unknown), or an orphan movie that plays got one as recovered.
        case catalogued
        /// An orphan that is not a complete JPEG, a thumbnail without its movie, or a DNG without its
        /// photo, was moved to
        /// `Unrecognised/` with the same relative path, out of the dated folders but not deleted.
        case quarantined
        /// An unfinished recording that plays was renamed to its final name and catalogued as
        /// recovered, with the stop reason "recovered".
        case recoveredRecording
        /// An unfinished recording or an orphan movie in which nothing plays was moved to
        /// `Damaged/` with the same relative path, kept for the user, not deleted.
        case setAsideRecording
        /// An orphan thumbnail was given to the catalogued movie beside it, which had none.
        case attachedThumbnail
        /// An orphan DNG was given to the catalogued photo beside it (`ID.jpg`), which had none:
        /// the two are a RAW + JPEG pair again.
        case attachedRaw
        /// A temporary file of an interrupted write, or an unfinished recording with no byte in it, was removed.
        case removedIncomplete
        /// An asset whose file is gone was marked `missing` (its row is kept as a record).
        case markedMissing
        /// An asset whose bytes changed was marked `damaged` (the file is kept).
        case markedDamaged
        /// An asset recorded missing or damaged whose intact file is back was marked `ok`.
        case markedOK
    }

    /// The library directory that was repaired.
    public let directory: String
    /// The changes made, in the order they were made; `path` is where the file was before a move.
    public let actions: [Action]
    /// Issues left as they were: unreadable files, and files a live writer took over meanwhile.
    public let unrepaired: [VerificationReport.Issue]

    public init(directory: String, actions: [Action], unrepaired: [VerificationReport.Issue]) {
        self.directory = directory
        self.actions = actions
        self.unrepaired = unrepaired
    }
}
