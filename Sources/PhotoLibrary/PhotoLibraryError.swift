#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite3

/// Why the photo library could not do what was asked. The description says what failed, with the
/// path or value, and what the user can do about it.
public struct PhotoLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of failure, for callers that react differently to each.
    public enum Kind: Sendable, Hashable {
        /// The library directory cannot be written (read-only mount or permissions).
        case readOnly
        /// The volume has less free space than the file plus the reserve.
        case insufficientSpace
        /// A file or folder operation failed.
        case fileSystem
        /// The catalogue database failed (the message is SQLite's).
        case catalog
        /// No asset has the given id.
        case notFound
        /// An argument is malformed (extension, dimensions, JSON).
        case invalidArgument
    }

    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A failed file operation, with the system's reason and `advice`.
    init(_ error: SystemCallError, advice: String) {
        let kind: Kind = switch error.code {
        case EROFS, EACCES, EPERM: .readOnly
        case ENOSPC, EDQUOT: .insufficientSpace
        default: .fileSystem
        }
        self.init(kind, "cannot \(error.operation) \(error.path): \(error.reason) — \(advice)")
    }

    /// A failed catalogue call on the database at `path`.
    init(_ error: SQLiteError, catalog path: String) {
        let (kind, advice): (Kind, String) = switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            (.catalog, "another program kept the catalogue locked; try again when it has finished")
        case SQLITE_READONLY:
            (.readOnly, "make the library directory writable, or choose another with --library DIR")
        case SQLITE_CANTOPEN:
            (.catalog, "check that the library directory exists and is writable, or choose another with --library DIR")
        case SQLITE_FULL:
            (.insufficientSpace, "free some space on that disk, or choose another directory with --library DIR")
        default:
            (.catalog, "check the disk, then run `camerasun library verify`")
        }
        self.init(kind, "catalogue \(path): cannot \(error.operation): \(error.message) (SQLite code \(error.code)) — \(advice)")
    }
}
