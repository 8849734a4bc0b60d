import CameraCore
import CameraSystem
import Foundation

/// A new movie's place in the library, handed to the recorder before its first frame: a fresh id,
/// the dated folder (already made), the final path `YYYY/MM/DD/ID.mp4` and the path the take is
/// written to until it is saved, `ID.mp4.partial`.
///
/// The reservation creates the empty partial file and holds an exclusive flock(2) on it until it
/// is released. The recorder writes into that same file (opening it truncates, it does not replace
/// it) and renames it to the final path, so the lock follows the take: `verify` in this or another
/// process counts it as in progress while the recorder lives, and the kernel drops the lock when
/// the recorder dies, which is what marks a take as unfinished for `repair`. Keep the reservation
/// until `addMovie` returns.
///
/// It also holds room on the volume for cataloguing the take: a temporary file of the library's
/// reserve plus `catalogueRoom`, allocated now and given back by `addMovie` just before it writes,
/// so that a take stopped by a full disk is still catalogued. Locked like the partial file, it is
/// in progress for `verify` while the recorder lives, and `repair` removes it after a crash.
public final class MovieReservation: Sendable {
    /// Unique in the library; also the movie file's name without its extension.
    public let id: String
    /// When the take starts, to the millisecond; it picked the dated folder and the id.
    public let createdAt: Date
    /// Where the saved movie goes: the absolute path of `ID.mp4`.
    public let path: String
    /// Where the take is recorded until it is saved: `path` + `.partial`.
    public let partialPath: String
    /// `path` relative to the library directory.
    let relativePath: String
    /// The directory of the library that made the reservation.
    let libraryDirectory: String
    private let lock: FileDescriptor
    /// The room file, until it is given back.
    private let room: Locked<FileDescriptor?>

    /// What cataloguing a take writes besides the reserve: its thumbnail (a 320×180 JPEG is under
    /// 20 KB) and its row (a few 4 KB pages of SQLite's write-ahead log), with room to spare.
    static let catalogueRoom: Int64 = 256 << 10

    init(id: String, createdAt: Date, relativePath: String, libraryDirectory: String, roomBytes: Int64) throws(SystemCallError) {
        self.id = id
        self.createdAt = createdAt
        self.relativePath = relativePath
        self.libraryDirectory = libraryDirectory
        path = "\(libraryDirectory)/\(relativePath)"
        partialPath = path + LibraryLayout.partialSuffix
        lock = try FileDescriptor.open(partialPath, .writeOnly, options: [.create, .exclusiveCreate, .noFollow],
                                       operation: "create")
        _ = try lock.lock(waiting: true)
        let roomPath = "\(FileSystem.parent(of: path))/\(LibraryLayout.catalogueRoom(forMovie: id))"
        do {
            let room = try FileDescriptor.open(roomPath, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], operation: "create")
            _ = try room.lock(waiting: true)
            try room.allocate(roomBytes)
            self.room = Locked(room)
        } catch {
            try? FileOperations.remove(roomPath)
            try? FileOperations.remove(partialPath)
            throw error
        }
    }

    /// Gives the room held for cataloguing back to the volume.
    func releaseRoom() {
        room.withLock { room in
            if let path = room?.path { try? FileOperations.remove(path) }
            room = nil
        }
    }

    /// Removes the partial file if the take never got a byte (the recorder failed to start), so
    /// an empty file is not left for `repair`; anything with bytes in it is left where it is.
    deinit {
        releaseRoom()
        if (try? lock.status().byteCount) == 0, (try? FileSystem.linkStatus(partialPath))?.byteCount == 0 {
            try? FileOperations.remove(partialPath)
        }
    }
}
