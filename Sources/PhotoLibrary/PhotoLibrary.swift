import CameraCore
import CameraSystem
import Foundation

/// A directory of photos and movies in dated folders (`YYYY/MM/DD/`) with a SQLite catalogue
/// (`catalog.sqlite`) that never loses a photo or a take.
///
/// `add` writes each file atomically and durably (temporary file → fsync → rename → fsync of the
/// folder) and only then commits its catalogue row. A crash between the steps leaves nothing, a
/// temporary file, or a complete file without a row — which `verify()` reports and `repair()`
/// catalogues — never a row without its file. A row that fails to commit takes its file back out.
///
/// A movie is recorded in place: `reserveMoviePath` gives the recorder its `ID.mp4.partial`, the
/// recorder saves the take as `ID.mp4`, and `addMovie` catalogues it with its thumbnail. A take
/// left unfinished by a crash is what `verify()` reports as an unfinished recording and
/// `repair(validateMovie:)` recovers.
///
/// `init(directory:)` creates a library (for a camera adding photos), `init(opening:)` only opens
/// one. A library whose folder or volume cannot be written opens read-only (`isReadOnly`): it can
/// be listed and verified, and adding to it says it is read-only. Every file operation goes
/// through CameraSystem, so tests inject failures with a `SystemCallSeam`.
///
/// Thread-safe: files are written concurrently and the catalogue connection is used under a mutex.
/// Several processes may share a library (SQLite write-ahead log with a busy timeout; files being
/// written are flock'ed, so another process's `verify` leaves them alone).
public final class PhotoLibrary: Sendable {
    /// The library directory.
    public let directory: URL
    let layout: LibraryLayout
    private let capacityProvider: any VolumeCapacityProvider
    private let catalog: Locked<Catalog>

    /// Whether the library is only read: its directory or volume cannot be written. Listing,
    /// showing and verifying work; adding and repairing fail as `.readOnly`.
    public let isReadOnly: Bool

    /// Opens the library in `directory`, creating the directory and its catalogue when absent:
    /// for a camera about to add a photo. Dated folders and ids use `timeZone`;
    /// `capacityProvider` reports the volume's free space.
    public convenience init(directory: URL, timeZone: TimeZone = .current,
                            capacityProvider: any VolumeCapacityProvider = SystemVolumeCapacity()) throws(PhotoLibraryError) {
        try self.init(directory, creating: true, timeZone: timeZone, capacityProvider: capacityProvider)
    }

    /// Opens the existing library in `directory`; throws `.notALibrary` naming the directory when
    /// it does not exist or has no catalogue, and creates nothing: for listing, verifying, repairing.
    public convenience init(opening directory: URL, timeZone: TimeZone = .current,
                            capacityProvider: any VolumeCapacityProvider = SystemVolumeCapacity()) throws(PhotoLibraryError) {
        try self.init(directory, creating: false, timeZone: timeZone, capacityProvider: capacityProvider)
    }

    private init(_ directory: URL, creating: Bool, timeZone: TimeZone,
                 capacityProvider: any VolumeCapacityProvider) throws(PhotoLibraryError) {
        self.directory = directory.standardizedFileURL
        layout = LibraryLayout(timeZone: timeZone)
        self.capacityProvider = capacityProvider
        let root = self.directory.path
        let catalogPath = "\(root)/\(LibraryLayout.catalogName)"
        if try PhotoLibraryError.catching({ () throws(SystemCallError) in try FileSystem.linkStatus(catalogPath) }) == nil {
            try Self.prepareNewLibrary(at: root, creating: creating)
        }
        isReadOnly = try PhotoLibraryError.catching { () throws(SystemCallError) in
            let isWritable = try FileSystem.isWritable(root)
            let volume = try FileSystem.volumeStatus(root)
            return !isWritable || volume.isReadOnly
        }
        do {
            catalog = Locked(try Catalog(path: catalogPath, readOnly: isReadOnly))
        } catch {
            throw PhotoLibraryError(error, catalog: catalogPath)
        }
    }

    /// Creates the directory `root` of a library without a catalogue when `creating`, else
    /// throws `.notALibrary` saying what `root` is instead.
    private static func prepareNewLibrary(at root: String, creating: Bool) throws(PhotoLibraryError) {
        let kind = try PhotoLibraryError.catching { () throws(SystemCallError) in try FileSystem.status(root)?.kind }
        guard creating else {
            let what = switch kind {
            case nil: "it does not exist"
            case .directory: "it has no \(LibraryLayout.catalogName)"
            default: "it is not a folder"
            }
            throw PhotoLibraryError(.notALibrary, "\(root) is not a photo library: \(what)")
        }
        let isWritable = try PhotoLibraryError.catching { () throws(SystemCallError) in
            if kind == nil { try FileOperations.createDirectories(root, under: "") }
            return try FileSystem.isWritable(root)
        }
        guard isWritable else {
            throw PhotoLibraryError(.readOnly, "cannot create a photo library in \(root): it is read-only")
        }
    }

    /// Where a library lives unless the user names one: `$XDG_PICTURES_DIR/CameraSun` when that
    /// variable holds an absolute path, else `$HOME/Pictures/CameraSun`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let pictures = environment["XDG_PICTURES_DIR"], pictures.hasPrefix("/") {
            return URL(fileURLWithPath: pictures, isDirectory: true).appendingPathComponent("CameraSun", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent("Pictures", isDirectory: true)
            .appendingPathComponent("CameraSun", isDirectory: true)
    }

    /// Throws unless the library's volume is writable and has room for `byteCount` bytes plus the
    /// reserve (`VolumeCapacity.reserveBytes`). `add` calls it first; a camera calls it before
    /// capturing, with an estimate of the photo's size, so a full disk fails before the shutter.
    /// Returns the capacity it read.
    @discardableResult
    public func checkCapacity(forBytes byteCount: Int) throws(PhotoLibraryError) -> VolumeCapacity {
        let capacity = try capacityProvider.capacity(ofVolumeAt: directory.path)
        guard !isReadOnly, capacity.isWritable else {
            throw PhotoLibraryError(.readOnly, "cannot write to the photo library \(directory.path): it is read-only "
                + "(a read-only file system or no write permission)")
        }
        let needed = Int64(byteCount) + capacity.reserveBytes
        guard capacity.availableBytes >= needed else {
            throw PhotoLibraryError(.insufficientSpace, "not enough free space in the photo library \(directory.path): "
                + "\(Self.size(capacity.availableBytes)) free, \(Self.size(needed)) needed "
                + "(\(byteCount) bytes to write + \(capacity.reserveBytes) bytes kept in reserve)")
        }
        return capacity
    }

    /// Every asset, oldest first.
    public func list() throws(PhotoLibraryError) -> [Asset] {
        try withCatalog { catalog throws(SQLiteError) in try catalog.all() }
    }

    /// The asset with `id`; throws `.notFound` naming the id when there is none.
    public func asset(id: String) throws(PhotoLibraryError) -> Asset {
        guard let asset = try withCatalog({ catalog throws(SQLiteError) in try catalog.asset(id: id) }) else {
            throw PhotoLibraryError(.notFound, "no asset with id \"\(id)\" in the photo library \(directory.path)")
        }
        return asset
    }

    /// Where `asset`'s file is.
    public func fileURL(for asset: Asset) -> URL {
        directory.appendingPathComponent(asset.path, isDirectory: false)
    }

    /// The absolute path of a library-relative path.
    func absolutePath(_ relativePath: String) -> String {
        "\(directory.path)/\(relativePath)"
    }

    /// Runs `body` with the catalogue under the mutex, turning SQLite errors into library errors.
    func withCatalog<Result: Sendable>(
        _ body: (Catalog) throws(SQLiteError) -> Result
    ) throws(PhotoLibraryError) -> Result {
        do {
            return try catalog.withLock { (catalog: inout sending Catalog) throws(SQLiteError) -> Result in
                try body(catalog)
            }
        } catch {
            throw PhotoLibraryError(error, catalog: absolutePath(LibraryLayout.catalogName))
        }
    }

    /// `bytes` with the exact count and the binary prefix that suits them, e.g. "1048576 bytes (1.0 MiB)".
    static func size(_ bytes: Int64) -> String {
        let mebibytes = Double(bytes) / Double(1 << 20)
        return "\(bytes) bytes (\((mebibytes * 10).rounded() / 10) MiB)"
    }
}
