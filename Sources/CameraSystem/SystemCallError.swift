/// A system call that failed: what was being done, to which path (when there is one), and the
/// errno it set. The description reads "cannot OPERATION PATH: REASON", e.g. "cannot flush
/// /photos/.tmp-1.jpg: No space left on device"; callers add what the user can do.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, as a verb phrase: "create", "flush", "create the folder".
    public let operation: String
    /// The file or directory concerned, nil for calls on an unnamed descriptor.
    public let path: String?
    public let errno: Errno

    public init(operation: String, path: String?, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The C library's text for the errno, e.g. "No space left on device".
    public var reason: String { errno.description }

    public var description: String {
        "cannot \(operation)\(path.map { " \($0)" } ?? ""): \(reason)"
    }
}
