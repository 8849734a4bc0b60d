#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive flock(2) on an existing file, taken without waiting. Failing to get it means a
/// live writer (a `PendingFile` in this or another process) still owns the file.
final class FileLock {
    /// What came of trying to lock a file.
    enum Attempt {
        /// The file is locked until the `FileLock` is released.
        case acquired(FileLock)
        /// A live writer holds the file.
        case busy
        /// The file is no longer there (its writer renamed or removed it).
        case vanished
    }

    let path: String
    private let descriptor: Int32

    /// Opens and locks the file at `path` without following a symbolic link.
    static func tryLock(_ path: String) throws(SystemCallError) -> Attempt {
        let descriptor: Int32
        do {
            descriptor = try systemCall("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        } catch where error.code == ENOENT {
            return .vanished
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return .busy }
            throw SystemCallError(operation: "lock", path: path, code: code)
        }
        return .acquired(FileLock(path: path, descriptor: descriptor))
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// The file's whole contents.
    func readAll() throws(SystemCallError) -> [UInt8] {
        try FileOperations.readAll(of: descriptor, path: path)
    }

    /// When the file was last modified, in seconds since 1970.
    func modificationTime() throws(SystemCallError) -> Double {
        var status = stat()
        try systemCall("examine", path) { fstat(descriptor, &status) }
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }

    deinit { close(descriptor) }
}
