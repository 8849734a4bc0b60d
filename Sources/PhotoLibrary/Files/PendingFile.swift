#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A new library file on its way in: created under a hidden temporary name, written, flushed, then
/// renamed to its final name and its folder flushed, so the final name only ever shows complete
/// bytes. A crash before the rename leaves just the temporary file, which `verify` reports as
/// incomplete.
///
/// The file holds an exclusive flock(2) from creation until it is released, and the caller keeps
/// it until the catalogue row is committed: `verify` in this or another process skips locked files
/// as in progress, and the kernel drops the lock when a writer dies, which is what marks a file as
/// left behind. (`verify` could lock a temporary file in the instant between its creation and the
/// writer's lock; the writer's rename then fails with a thrown error, it never loses bytes silently.)
final class PendingFile {
    private let descriptor: Int32
    private let temporaryPath: String
    private var isPublished = false

    /// Creates `temporaryPath`, which must not exist yet, and locks it.
    init(temporaryPath: String) throws(SystemCallError) {
        let descriptor = try systemCall("create", temporaryPath) {
            open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        do {
            try systemCall("lock", temporaryPath) { flock(descriptor, LOCK_EX) }
        } catch {
            unlink(temporaryPath)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
    }

    /// Writes `bytes`, flushes them, renames the file to `finalPath` and flushes `directory`, the
    /// folder both names are in.
    func publish(_ bytes: UnsafeRawBufferPointer, as finalPath: String, in directory: String) throws(SystemCallError) {
        try FileOperations.writeAll(bytes, to: descriptor, path: temporaryPath)
        try systemCall("flush", temporaryPath) { fsync(descriptor) }
        try systemCall("rename", temporaryPath) { rename(temporaryPath, finalPath) }
        isPublished = true
        try FileOperations.syncDirectory(directory)
    }

    /// Removes the temporary file unless it was published, then drops the lock.
    deinit {
        if !isPublished { unlink(temporaryPath) }
        close(descriptor)
    }
}
