import CameraSystem

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

    private let file: FileDescriptor

    /// Opens and locks the file at `path` without following a symbolic link.
    static func tryLock(_ path: String) throws(SystemCallError) -> Attempt {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: .noFollow)
        } catch where error.errno == .noSuchFileOrDirectory {
            return .vanished
        }
        return try file.lock(waiting: false) ? .acquired(FileLock(file: file)) : .busy
    }

    private init(file: FileDescriptor) {
        self.file = file
    }

    /// The file's whole contents.
    func readAll() throws(SystemCallError) -> [UInt8] {
        try file.readAll()
    }

    /// Whether the file holds no byte at all.
    func isEmpty() throws(SystemCallError) -> Bool {
        try file.status().byteCount == 0
    }

    /// When the file was last modified, in seconds since 1970.
    func modificationTime() throws(SystemCallError) -> Double {
        try file.status().modificationTime
    }
}
