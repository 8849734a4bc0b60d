import CameraSystem

/// A new library file on its way in: an `AtomicFile` (hidden temporary name, written, flushed,
/// renamed to its final name, folder flushed), so the final name only ever shows complete bytes.
/// A crash before the rename leaves just the temporary file, which `verify` reports as incomplete.
///
/// The file holds an exclusive flock(2) from creation until it is released, and the caller keeps
/// it until the catalogue row is committed: `verify` in this or another process skips locked files
/// as in progress, and the kernel drops the lock when a writer dies, which is what marks a file as
/// left behind. (`verify` could lock a temporary file in the instant between its creation and the
/// writer's lock; the writer's rename then fails with a thrown error, it never loses bytes silently.)
final class PendingFile {
    private let file: AtomicFile

    /// Creates `temporaryPath`, which must not exist yet, to become `finalPath`, and locks it.
    init(temporaryPath: String, finalPath: String) throws(SystemCallError) {
        file = try AtomicFile(replacing: finalPath, temporaryPath: temporaryPath)
        _ = try file.descriptor.lock(waiting: true)
    }

    /// Writes `bytes`, flushes them, renames the file to its final name and flushes its folder.
    func publish(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try file.write(bytes)
        try file.commit()
    }
}
