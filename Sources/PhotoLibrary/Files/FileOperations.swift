import CameraSystem

/// The file operations the library is built from, on CameraSystem's calls, each one durable where
/// it changes the disk: a directory that gains or loses an entry is flushed, so the change
/// survives a power cut.
enum FileOperations {
    /// Creates the `/`-separated `relativePath` below the existing directory `root`, one component
    /// at a time, flushing each parent that gains an entry. Existing components are fine, so
    /// concurrent callers creating the same folder do not fail.
    static func createDirectories(_ relativePath: String, under root: String) throws(SystemCallError) {
        var parent = root
        for component in relativePath.split(separator: "/") {
            let path = "\(parent)/\(component)"
            if try FileSystem.makeDirectory(path) {
                try FileSystem.syncDirectory(parent.isEmpty ? "/" : parent)
            }
            parent = path
        }
    }

    /// What `path` names, without following a symbolic link there; nil when nothing is there.
    static func entryKind(_ path: String) throws(SystemCallError) -> FileStatus.Kind? {
        try FileSystem.linkStatus(path)?.kind
    }

    /// The SHA-256 (lowercase hex) and size of the file at `path`, read in chunks.
    static func digest(ofFileAt path: String) throws(SystemCallError) -> (sha256: String, byteCount: Int) {
        let file = try FileDescriptor.open(path, .readOnly, options: .noFollow)
        var hasher = SHA256()
        var byteCount = 0
        try file.readChunks { bytes in
            hasher.update(bytes)
            byteCount += bytes.count
        }
        return (hasher.finalize().hexadecimal, byteCount)
    }

    /// Renames `source` to `destination` on the same file system and flushes both folders.
    static func move(_ source: String, to destination: String) throws(SystemCallError) {
        try FileSystem.rename(source, to: destination)
        try FileSystem.syncDirectory(FileSystem.parent(of: destination))
        try FileSystem.syncDirectory(FileSystem.parent(of: source))
    }

    /// Removes the file at `path` and flushes its folder.
    static func remove(_ path: String) throws(SystemCallError) {
        try FileSystem.remove(path)
        try FileSystem.syncDirectory(FileSystem.parent(of: path))
    }
}
