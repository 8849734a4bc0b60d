import CameraSystem
import CameraTestSupport
import Foundation
import PhotoLibrary
import Testing

/// A full disk while a saved take is being added: the thumbnail and the row are all or nothing,
/// the take itself is never removed (the caller holds no other copy), and the catalogue stays
/// consistent, so `repair` can still catalogue the take once there is room.
@Suite struct MovieDiskFullTests {
    /// Records and saves a take in `library`, hands its reservation to `add`, then releases the
    /// reservation (as a recorder does when it is done); returns where the take is and its bytes.
    static func addSavedTake(to library: PhotoLibrary, _ add: (MovieReservation) throws -> Void) throws
        -> (path: String, bytes: [UInt8]) {
        let bytes = TakeDouble.bytes(60_000, seed: 5)
        let reservation = try library.reserveMoviePath(createdAt: AddAndListTests.created)
        try TakeDouble.recordAndSave(bytes, into: reservation)
        try add(reservation)
        return (reservation.path, bytes)
    }

    /// Checks that `library` holds only the uncatalogued take `bytes` at `path`, which `repair`
    /// then catalogues as recovered.
    static func expectTakeKeptUncatalogued(_ library: PhotoLibrary, at path: String, bytes: [UInt8]) throws {
        let relative = String(path.dropFirst(library.directory.path.count + 1))
        #expect(allFiles(under: library.directory.appendingPathComponent("2025")) == [String(relative.dropFirst(5))])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        let listed = try library.list()
        #expect(listed.isEmpty)
        let issues = try library.verify().issues
        #expect(issues.map { "\($0.kind.rawValue) \($0.path)" } == ["orphanFile \(relative)"], "\(issues)")
        let repair = try library.repair(validateMovie: { _ in TakeDouble.facts })
        #expect(repair.actions.map(\.kind) == [.catalogued])
        #expect(try library.list().map(\.sha256) == [try sha256sum(bytes)])
        #expect(try library.verify().isClean)
    }

    @Test("no room for the thumbnail: refused before anything is written, the take kept for repair")
    func refusedBeforeWriting() async throws {
        try await withLibrary { library in
            let full = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1_000, totalBytes: 1 << 30, isWritable: true))
            let fullView = try PhotoLibrary(opening: library.directory, timeZone: .gmt, capacityProvider: full)
            let (path, bytes) = try Self.addSavedTake(to: library) { reservation in
                let error = #expect(throws: PhotoLibraryError.self) {
                    try fullView.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
                }
                #expect(error?.kind == .insufficientSpace)
                #expect(error?.description.hasPrefix("not enough free space in the photo library \(library.directory.path): "
                    + "1000 bytes (0.0 MiB) free") == true, "\(String(describing: error))")
            }
            try Self.expectTakeKeptUncatalogued(library, at: path, bytes: bytes)
        }
    }

    @Test("the disk fills at the thumbnail's flush (injected): the error says the take is kept, no thumbnail or row is left")
    func fullAtThumbnailFlush() async throws {
        try await withLibrary { library in
            let (path, bytes) = try Self.addSavedTake(to: library) { reservation in
                let seam = SystemCallSeam()
                seam.fail(.fsync, with: .noSpace, pathContaining: ".thumb.jpg")
                let error = #expect(throws: PhotoLibraryError.self) {
                    try seam.run { () throws(PhotoLibraryError) in
                        _ = try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped",
                                                 thumbnail: TakeDouble.thumbnail)
                    }
                }
                #expect(error?.kind == .insufficientSpace && error?.systemCallError?.errno == .noSpace)
                #expect(error?.description.hasPrefix("the movie \(reservation.path) was not catalogued: its thumbnail could "
                    + "not be written, so the recording is kept uncatalogued at that path: cannot flush ") == true,
                        "\(String(describing: error))")
            }
            try Self.expectTakeKeptUncatalogued(library, at: path, bytes: bytes)
        }
    }

    @Test("the row cannot be committed: the thumbnail is taken back out and the take kept for repair")
    func rowRefused() async throws {
        try await withLibrary { library in
            let (path, bytes) = try Self.addSavedTake(to: library) { reservation in
                let catalog = library.directory.appendingPathComponent("catalog.sqlite").path
                try run("/usr/bin/sqlite3", [catalog, "CREATE TRIGGER refuse_rows BEFORE INSERT ON assets "
                    + "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"])
                let error = #expect(throws: PhotoLibraryError.self) {
                    try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped", thumbnail: TakeDouble.thumbnail)
                }
                #expect(error?.kind == .catalog && error?.description.contains("database or disk is full") == true)
                #expect(error?.description.hasPrefix("the movie \(reservation.path) was not catalogued: its catalogue row "
                    + "could not be committed, so its thumbnail was removed again") == true, "\(String(describing: error))")
            }
            try run("/usr/bin/sqlite3", [library.directory.appendingPathComponent("catalog.sqlite").path, "DROP TRIGGER refuse_rows"])
            try Self.expectTakeKeptUncatalogued(library, at: path, bytes: bytes)
        }
    }

    @Test("on a real 1 MiB tmpfs, a thumbnail that does not fit fails with ENOSPC and leaves the catalogue consistent",
          .enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root; the injected tests above cover the same behaviour"))
    func fullTmpfs() async throws {
        try await TmpfsVolumeTests.withTmpfs { volume in
            // Plenty free, as far as the library is told, and a reserve (1% of the total) the volume can hold.
            let plenty = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1 << 40, totalBytes: 1 << 20, isWritable: true))
            let library = try PhotoLibrary(directory: volume.appendingPathComponent("Library"), timeZone: .gmt,
                                           capacityProvider: plenty)
            let (path, bytes) = try Self.addSavedTake(to: library) { reservation in
                let error = #expect(throws: PhotoLibraryError.self) {
                    try library.addMovie(reservation, facts: TakeDouble.facts, stopReason: "stopped",
                                         thumbnail: Data(repeating: 0xAB, count: 2_000_000))
                }
                #expect(error?.kind == .insufficientSpace)
                #expect(error?.description.contains("No space left on device") == true, "\(String(describing: error))")
            }
            try Self.expectTakeKeptUncatalogued(library, at: path, bytes: bytes)
        }
    }
}
