import CameraSystem
import CSQLite3

/// Why the photo library could not do what was asked. The description says what failed, with the
/// path or value; the cause stays typed (`systemCallError`, `sqliteResultCode`), and what the user
/// can do about it is for the caller to say — a command line names its flags, an HTTP API its
/// requests.
public struct PhotoLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of failure, for callers that react differently to each.
    public enum Kind: Sendable, Hashable {
        /// The directory is not a photo library (it does not exist or has no catalogue), and
        /// opening it without creating one was asked for.
        case notALibrary
        /// The library directory cannot be written (read-only mount or permissions).
        case readOnly
        /// The volume has less free space than the file plus the reserve.
        case insufficientSpace
        /// Another connection kept the catalogue locked for longer than the busy timeout.
        case busy
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
    /// The system call that failed, when one did.
    public let systemCallError: SystemCallError?
    /// SQLite's (extended) result code, when the catalogue failed.
    public let sqliteResultCode: Int32?

    init(_ kind: Kind, _ description: String, systemCallError: SystemCallError? = nil, sqliteResultCode: Int32? = nil) {
        self.kind = kind
        self.description = description
        self.systemCallError = systemCallError
        self.sqliteResultCode = sqliteResultCode
    }

    /// A failed file operation, e.g. "cannot create the folder /p/2025: Read-only file system".
    init(_ error: SystemCallError) {
        let kind: Kind = switch error.errno {
        case .readOnlyFileSystem, .permissionDenied, .notPermitted: .readOnly
        case .noSpace, .quotaExceeded: .insufficientSpace
        default: .fileSystem
        }
        self.init(kind, error.description, systemCallError: error)
    }

    /// A failed catalogue call on the database at `path`.
    init(_ error: SQLiteError, catalog path: String) {
        let kind: Kind = switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_READONLY: .readOnly
        case SQLITE_FULL: .insufficientSpace
        default: .catalog
        }
        self.init(kind, "catalogue \(path): cannot \(error.operation): \(error.message) (SQLite code \(error.code))",
                  sqliteResultCode: error.code)
    }

    /// What `body` returns, its failed system call thrown as a library error.
    static func catching<Result>(_ body: () throws(SystemCallError) -> Result) throws(PhotoLibraryError) -> Result {
        do {
            return try body()
        } catch {
            throw PhotoLibraryError(error)
        }
    }

    /// This error with `context` before its description, e.g. "the photo was not saved: …".
    func explained(_ context: String) -> PhotoLibraryError {
        PhotoLibraryError(kind, "\(context): \(description)", systemCallError: systemCallError, sqliteResultCode: sqliteResultCode)
    }
}
