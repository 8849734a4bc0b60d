import Glibc

/// A file replaced atomically and durably: the new bytes go to a temporary file in the same
/// folder, are flushed (fsync), the temporary file is renamed over the final name and the folder
/// is flushed. Readers see the old file or the whole new one, never a part, and the new one
/// survives a power cut once `commit` returns. Until then, releasing it removes the temporary file.
///
/// ```
///  create temporary ─► write … ─► commit: fsync ─► rename over path ─► fsync folder
/// ```
public final class AtomicFile {
    /// The descriptor of the temporary file, e.g. to lock it while it is written.
    public let descriptor: FileDescriptor
    /// The name the file gets on `commit`.
    public let path: String
    private var isCommitted = false

    /// Creates the temporary file `temporaryPath` (which must not exist) in `path`'s folder,
    /// by default a hidden name with a random part beside `path`.
    public init(replacing path: String, temporaryPath: String? = nil, permissions: mode_t = 0o644) throws(SystemCallError) {
        let temporary = temporaryPath ?? Self.temporaryPath(for: path)
        descriptor = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusiveCreate],
                                             permissions: permissions, operation: "create")
        self.path = path
    }

    /// Appends every byte of `bytes` to the temporary file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try descriptor.writeAll(bytes)
    }

    /// Flushes the temporary file, renames it to `path` and flushes the folder.
    public func commit() throws(SystemCallError) {
        try descriptor.sync()
        try FileSystem.rename(descriptor.path, to: path)
        isCommitted = true
        try FileSystem.syncDirectory(FileSystem.parent(of: path))
    }

    /// Writes `bytes` to `path` atomically and durably.
    public static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, permissions: mode_t = 0o644) throws(SystemCallError) {
        let file = try AtomicFile(replacing: path, permissions: permissions)
        try file.write(bytes)
        try file.commit()
    }

    /// `.NAME.RANDOM.tmp` beside `path`.
    private static func temporaryPath(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(FileSystem.parent(of: path))/.\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
    }

    /// Removes the temporary file unless it was committed; the descriptor closes after.
    deinit {
        if !isCommitted { try? FileSystem.remove(descriptor.path) }
    }
}
