internal import CMalloc

/// How the process gives the memory it frees back to the kernel (glibc's allocator).
///
/// By default glibc serves blocks up to the largest one freed so far from its arenas, which keep
/// their peak: a `serve` taking photos, takes and a stream for 30 minutes climbed from 284 to 344 MB
/// in steps at its busiest moments while its live heap stayed at 88–91 MB (heaptrack). Blocks from
/// `mappedBlockSize` up (a frame's planes and images) are given their own mapping, returned when
/// freed: with a viewer and a take, `serve` held 154 MB, not 232–267 MB, at about 10,000 page faults
/// a second for the frames mapped afresh. `release()` hands back the free pages of what the arenas
/// still hold (after three takes, 274 MB fell to 194 MB). With both, the 30-minute soak's memory
/// held at 191–195 MB between takes (BENCHMARKS.md).
public enum FreeMemory {
    /// The smallest block that gets a mapping of its own, bytes.
    public static let mappedBlockSize: Int32 = 1 << 20
    /// How often a long-running command calls `release()`.
    public static let trimInterval = Duration.seconds(60)

    /// Fixes the size from which blocks are mapped, so that it no longer grows with the largest freed.
    public static func mapLargeBlocks() {
        _ = mallopt(M_MMAP_THRESHOLD, mappedBlockSize)
    }

    /// Returns the free pages of every arena to the kernel.
    public static func release() {
        _ = malloc_trim(0)
    }
}
