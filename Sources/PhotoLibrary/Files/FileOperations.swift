#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file operations the library is built from, each one durable where it changes the disk: a
/// directory that gains or loses an entry is flushed, so the change survives a power cut.
enum FileOperations {
    /// What is at a path, without following a symbolic link there.
    enum EntryKind: Equatable {
        case none, regularFile, directory, other
    }

    /// Creates the `/`-separated `relativePath` below the existing directory `root`, one component
    /// at a time, flushing each parent that gains an entry. Existing components are fine, so
    /// concurrent callers creating the same folder do not fail.
    static func createDirectories(_ relativePath: String, under root: String) throws(SystemCallError) {
        var parent = root
        for component in relativePath.split(separator: "/") {
            let path = "\(parent)/\(component)"
            if mkdir(path, 0o755) == 0 {
                try syncDirectory(parent.isEmpty ? "/" : parent)
            } else if errno != EEXIST {
                throw SystemCallError(operation: "create the folder", path: path, code: errno)
            }
            parent = path
        }
    }

    /// Flushes a directory's entries (a rename or unlink in it) to the disk.
    static func syncDirectory(_ path: String) throws(SystemCallError) {
        let descriptor = try systemCall("open the folder", path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try systemCall("flush the folder", path) { fsync(descriptor) }
    }

    /// What `path` names: nothing, a regular file, a directory or something else.
    static func entryKind(_ path: String) throws(SystemCallError) -> EntryKind {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .none }
            throw SystemCallError(operation: "examine", path: path, code: errno)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, continuing after short writes.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            offset += try systemCall("write", path) { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// Reads `descriptor` from its current offset to the end, in chunks handed to `body`.
    static func readChunks(
        of descriptor: Int32, path: String, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(SystemCallError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try systemCall("read", path) { read(descriptor, chunk.baseAddress!, chunk.count) }
            if count == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// The SHA-256 (lowercase hex) and size of the file at `path`, read in chunks.
    static func digest(ofFileAt path: String) throws(SystemCallError) -> (sha256: String, byteCount: Int) {
        let descriptor = try systemCall("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(descriptor) }
        var hasher = SHA256()
        var byteCount = 0
        try readChunks(of: descriptor, path: path) { bytes in
            hasher.update(bytes)
            byteCount += bytes.count
        }
        return (hasher.finalize().hexadecimal, byteCount)
    }

    /// Everything `descriptor` reads from its current offset to the end.
    static func readAll(of descriptor: Int32, path: String) throws(SystemCallError) -> [UInt8] {
        var contents: [UInt8] = []
        try readChunks(of: descriptor, path: path) { contents.append(contentsOf: $0) }
        return contents
    }

    /// Renames `source` to `destination` on the same file system and flushes both folders.
    static func move(_ source: String, to destination: String) throws(SystemCallError) {
        try systemCall("rename", source) { rename(source, destination) }
        try syncDirectory(parent(of: destination))
        try syncDirectory(parent(of: source))
    }

    /// Removes the file at `path` and flushes its folder.
    static func remove(_ path: String) throws(SystemCallError) {
        try systemCall("remove", path) { unlink(path) }
        try syncDirectory(parent(of: path))
    }

    /// The names in the directory at `path`, sorted, without `.` and `..`.
    static func entries(of path: String) throws(SystemCallError) -> [String] {
        guard let directory = opendir(path) else { throw SystemCallError(operation: "list", path: path, code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The folder part of an absolute `path`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
