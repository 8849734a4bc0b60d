import Glibc

/// System calls on paths: directories, renames, removals, status and volumes. Each goes through
/// `systemCall` (EINTR retry, a `SystemCallError` naming the path, the test seam).
public enum FileSystem {
    /// Creates the directory `path` (mkdir(2)); returns false when something is already there.
    @discardableResult
    public static func makeDirectory(_ path: String, permissions: mode_t = 0o755) throws(SystemCallError) -> Bool {
        do {
            try systemCall(.mkdir, "create the folder", path) { mkdir(path, permissions) }
            return true
        } catch where error.errno == .fileExists {
            return false
        }
    }

    /// Renames `source` to `destination`, replacing it atomically (rename(2)).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try systemCall(.rename, "rename", source) { Glibc.rename(source, destination) }
    }

    /// Removes the file at `path` (unlink(2)).
    public static func remove(_ path: String) throws(SystemCallError) {
        try systemCall(.unlink, "remove", path) { unlink(path) }
    }

    /// What is at `path` without following a symbolic link (lstat(2)); nil when nothing is.
    public static func linkStatus(_ path: String) throws(SystemCallError) -> FileStatus? {
        try status(.lstat, path) { lstat(path, &$0) }
    }

    /// What `path` leads to, following symbolic links (stat(2)); nil when nothing is there.
    public static func status(_ path: String) throws(SystemCallError) -> FileStatus? {
        try status(.stat, path) { stat(path, &$0) }
    }

    private static func status(_ function: SystemFunction, _ path: String,
                               _ call: (inout stat) -> Int32) throws(SystemCallError) -> FileStatus? {
        var status = stat()
        do {
            try systemCall(function, "examine", path) { call(&status) }
        } catch where error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
            return nil
        }
        return FileStatus(status)
    }

    /// The names in the directory at `path` (opendir(3), readdir(3)), sorted, without `.` and `..`.
    public static func entries(of path: String) throws(SystemCallError) -> [String] {
        guard let directory = try systemCall(.opendir, "list", path, failed: { $0 == nil }, { opendir(path) }) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns nil both at the end and on an error; only an error sets errno.
            let entry = try systemCall(.readdir, "list", path, failed: { $0 == nil && errno != 0 }) { () -> UnsafeMutablePointer<dirent>? in
                errno = 0
                return readdir(directory)
            }
            guard let entry else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Flushes a directory's entries — a file created, renamed or removed in it — to the disk.
    public static func syncDirectory(_ path: String) throws(SystemCallError) {
        try FileDescriptor.open(path, .readOnly, options: .directory, operation: "open the folder")
            .sync(operation: "flush the folder")
    }

    /// The size and free space of the volume holding `path` (statvfs(3)).
    public static func volumeStatus(_ path: String) throws(SystemCallError) -> VolumeStatus {
        var status = statvfs()
        try systemCall(.statvfs, "measure the free space of", path) { statvfs(path, &status) }
        return VolumeStatus(status)
    }

    /// Whether this process may write into `path` (access(2) with `W_OK`): false on a read-only
    /// mount or without permission.
    public static func isWritable(_ path: String) throws(SystemCallError) -> Bool {
        do {
            try systemCall(.access, "check the permissions of", path) { access(path, W_OK) }
            return true
        } catch where [.permissionDenied, .readOnlyFileSystem, .notPermitted].contains(error.errno) {
            return false
        }
    }

    /// The folder part of `path`: "/a/b" for "/a/b/c", "/" for "/c", "." for "c".
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
