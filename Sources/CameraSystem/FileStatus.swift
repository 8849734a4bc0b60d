import Glibc

/// What stat(2), lstat(2) or fstat(2) says about a file, in Swift terms.
public struct FileStatus: Sendable, Hashable {
    /// The type of a file system entry.
    public enum Kind: Sendable, Hashable {
        case regularFile, directory, symbolicLink, other
    }

    public let kind: Kind
    /// The size in bytes.
    public let byteCount: Int64
    /// When the contents last changed, in seconds since 1970.
    public let modificationTime: Double
    /// The permission bits, e.g. 0o644.
    public let permissions: mode_t

    init(_ status: stat) {
        kind = switch status.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        default: .other
        }
        byteCount = Int64(status.st_size)
        modificationTime = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        permissions = status.st_mode & 0o7777
    }
}
