import Glibc

/// An open file descriptor that owns its descriptor: it is closed when the last reference goes.
/// The path it was opened with names it in errors. Every call goes through `systemCall`, so it
/// retries EINTR, throws a `SystemCallError`, and is seen by the `SystemCallSeam` in tests.
///
/// A final class with only constants, so it is `Sendable`; concurrent reads or writes on one
/// descriptor are as safe as the kernel makes them (not ordered).
public final class FileDescriptor: Sendable {
    /// The C descriptor; valid while this object lives.
    public let rawValue: Int32
    /// The path it was opened with.
    public let path: String

    /// Whether the file is opened for reading, writing or both.
    public enum AccessMode: Sendable {
        /// The corresponding C constant is `O_RDONLY`.
        case readOnly
        /// The corresponding C constant is `O_WRONLY`.
        case writeOnly
        /// The corresponding C constant is `O_RDWR`.
        case readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// How open(2) treats the path. Every descriptor is also close-on-exec (`O_CLOEXEC`), so a
    /// child process never inherits it.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Create the file when absent. The corresponding C constant is `O_CREAT`.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail when it exists. The corresponding C constant is `O_EXCL`.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        /// Empty the file. The corresponding C constant is `O_TRUNC`.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Fail unless the path is a directory. The corresponding C constant is `O_DIRECTORY`.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// Fail when the path is a symbolic link. The corresponding C constant is `O_NOFOLLOW`.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Calls that would wait fail with `EAGAIN` instead. The corresponding C constant is `O_NONBLOCK`.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    }

    private init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    /// Opens `path` (open(2)); `permissions` apply to a file it creates.
    public static func open(_ path: String, _ access: AccessMode, options: OpenOptions = [],
                            permissions: mode_t = 0o644, operation: String = "open") throws(SystemCallError) -> FileDescriptor {
        let flags = access.flags | options.rawValue | O_CLOEXEC
        let descriptor = try systemCall(.open, operation, path) { Glibc.open(path, flags, permissions) }
        return FileDescriptor(rawValue: descriptor, path: path)
    }

    /// Closes the descriptor (close(2), never retried: Linux has closed it even when it reports
    /// EINTR). Its error is not reported: what was written was made durable, or not, by `sync()`.
    deinit {
        let descriptor = rawValue
        _ = try? systemCall(.close, "close", path, retryingInterrupts: false) { Glibc.close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes at the current offset (read(2)); 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try systemCall(.read, "read", path) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the current offset (pread(2)); 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        try systemCall(.pread, "read", path) { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Makes the volume hold `length` bytes for the file from its start (posix_fallocate(3)), so
    /// that writes within them cannot fail for want of space; ENOSPC when the volume has too few.
    public func allocate(_ length: Int64) throws(SystemCallError) {
        try systemCall(.fallocate, "reserve space for", path) { () -> Int32 in
            let code = posix_fallocate(rawValue, 0, off_t(length))
            if code != 0 { errno = code }
            return code == 0 ? 0 : -1
        }
    }

    /// Cuts the file to `length` bytes (ftruncate(2)).
    public func truncate(to length: Int64) throws(SystemCallError) {
        try systemCall(.ftruncate, "truncate", path) { ftruncate(rawValue, off_t(length)) }
    }

    /// Writes some of `bytes` at the current offset (write(2)) and returns how many.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try systemCall(.write, "write", path) { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes some of `bytes` at `offset` without moving the current offset (pwrite(2)).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        try systemCall(.pwrite, "write", path) { Glibc.pwrite(rawValue, bytes.baseAddress, bytes.count, off_t(offset)) }
    }

    /// Writes every byte of `bytes`, continuing after short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Reads from the current offset to the end in chunks of at most 1 MiB handed to `body`.
    public func readChunks(_ body: (UnsafeRawBufferPointer) -> Void) throws(SystemCallError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk)
            if count == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// Everything from the current offset to the end.
    public func readAll() throws(SystemCallError) -> [UInt8] {
        var contents: [UInt8] = []
        try readChunks { contents.append(contentsOf: $0) }
        return contents
    }

    /// Flushes the file's data and metadata to the disk (fsync(2)).
    public func sync(operation: String = "flush") throws(SystemCallError) {
        try systemCall(.fsync, operation, path) { fsync(rawValue) }
    }

    /// What the open file is (fstat(2)).
    public func status() throws(SystemCallError) -> FileStatus {
        var status = stat()
        try systemCall(.fstat, "examine", path) { fstat(rawValue, &status) }
        return FileStatus(status)
    }

    /// Takes an exclusive flock(2) on the file. Without `waiting`, returns false at once when
    /// another open file holds it; with it, waits for the lock and always returns true.
    public func lock(waiting: Bool) throws(SystemCallError) -> Bool {
        let operation = LOCK_EX | (waiting ? 0 : LOCK_NB)
        do {
            try systemCall(.flock, "lock", path) { flock(rawValue, operation) }
            return true
        } catch where error.errno == .wouldBlock && !waiting {
            return false
        }
    }

    /// Sends the device request `request` with `argument` (ioctl(2)) and returns its result.
    @discardableResult
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer, operation: String) throws(SystemCallError) -> Int32 {
        try systemCall(.ioctl, operation, path) { ioctl(rawValue, request, argument) }
    }

    /// Sends the device request `request` with `argument`, a C struct the driver reads and fills
    /// in (ioctl(2)), e.g. a V4L2 `struct v4l2_format` for VIDIOC_S_FMT.
    @discardableResult
    public func control<Argument>(_ request: UInt, _ argument: inout Argument, operation: String) throws(SystemCallError) -> Int32 {
        try withUnsafeMutablePointer(to: &argument) { (pointer) throws(SystemCallError) in
            try control(request, UnsafeMutableRawPointer(pointer), operation: operation)
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for `events` (poll(2)) and returns those
    /// that occurred, empty on a timeout.
    public func poll(for events: PollEvents, timeoutMilliseconds: Int32) throws(SystemCallError) -> PollEvents {
        var request = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        try systemCall(.poll, "wait for", path) { Glibc.poll(&request, 1, timeoutMilliseconds) }
        return PollEvents(rawValue: request.revents)
    }
}
