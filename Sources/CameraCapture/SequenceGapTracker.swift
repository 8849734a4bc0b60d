/// Finds the frames missing from a stream: a jump in sequence numbers that the device's own drop
/// reports do not explain is a discontinuity (frames lost around an interruption, or skipped).
struct SequenceGapTracker: Sendable {
    private var lastSequence: UInt64?
    /// Drops the device reported since the last frame; each explains one missing number.
    private var reportedDrops: UInt64 = 0

    mutating func deviceDropped() {
        reportedDrops += 1
    }

    /// The sequence numbers missing before `sequence` and not explained by reported drops. A
    /// sequence that goes back (the device restarted its numbering) starts afresh.
    mutating func missingBefore(_ sequence: UInt64) -> Range<UInt64> {
        defer {
            lastSequence = sequence
            reportedDrops = 0
        }
        guard let lastSequence, sequence > lastSequence + 1 else { return sequence..<sequence }
        let missing = sequence - lastSequence - 1
        return (lastSequence + 1 + min(reportedDrops, missing))..<sequence
    }
}
