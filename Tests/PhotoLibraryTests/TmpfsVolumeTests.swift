import CameraSystem
import CameraTestSupport
import Foundation
import PhotoLibrary
import Testing

/// A full and a read-only volume for real: a 1 MiB tmpfs. Mounting needs root; without it these
/// tests do not run and the injected-provider tests in CapacityTests cover the same behaviour.
@Suite(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root; CapacityTests injects full and read-only volumes instead"))
struct TmpfsVolumeTests {
    /// A 1 MiB tmpfs for `body`.
    static func withTmpfs(_ body: (URL) throws -> Void) async throws {
        try await Tmpfs.with(bytes: 1 << 20) { try body($0) }
    }

    @Test("on a 1 MiB tmpfs a photo that fits is stored and one that does not is refused before writing")
    func fullVolume() async throws {
        try await Self.withTmpfs { volume in
            let library = try PhotoLibrary(directory: volume.appendingPathComponent("Library"), timeZone: .gmt)
            let stored = try library.add([UInt8](repeating: 1, count: 100_000), width: 10, height: 10)
            let free = try SystemVolumeCapacity().capacity(ofVolumeAt: library.directory.path).availableBytes
            #expect(free <= 1_048_576 - 100_000)
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add([UInt8](repeating: 2, count: 2_000_000), width: 10, height: 10)
            }
            #expect(error?.kind == .insufficientSpace)
            #expect(error?.description.contains(": \(free) bytes (") == true)
            #expect(error?.description.contains("MiB) free, 2010485 bytes (1.9 MiB) needed "
                + "(2000000 bytes to write + 10485 bytes kept in reserve)") == true)
            #expect(try library.list() == [stored])
            #expect(allFiles(under: library.directory).filter { $0.contains(".tmp-") }.isEmpty)
        }
    }

    @Test("when the free-space check is fooled, the disk-full write fails cleanly: no temporary file, no row")
    func diskFullDuringWrite() async throws {
        try await Self.withTmpfs { volume in
            let plenty = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1 << 40, totalBytes: 1 << 41, isWritable: true))
            let library = try PhotoLibrary(directory: volume.appendingPathComponent("Library"), timeZone: .gmt,
                                           capacityProvider: plenty)
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add([UInt8](repeating: 3, count: 2_000_000), width: 10, height: 10)
            }
            #expect(error?.kind == .insufficientSpace)
            #expect(error?.description.contains("No space left on device") == true)
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(allFiles(under: library.directory).allSatisfy { $0.hasPrefix("catalog.sqlite") })
        }
    }

    @Test("a library seen through a read-only mount, with no writer open, can be listed and verified but not added to or repaired")
    func readOnlyMount() async throws {
        try await Self.withTmpfs { volume in
            let directory = volume.appendingPathComponent("Library")
            // The writer closes first, so SQLite checkpoints and removes its -wal and -shm files:
            // a read-only connection then cannot create the index a write-ahead log needs.
            let stored = try PhotoLibrary(directory: directory, timeZone: .gmt).add([1, 2, 3], width: 1, height: 1)
            #expect(allFiles(under: directory).filter { $0.hasPrefix("catalog") } == ["catalog.sqlite"])
            let view = volume.appendingPathComponent("read-only-view", isDirectory: true)
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: false)
            try run("/bin/mount", ["--bind", "-o", "ro", directory.path, view.path])
            defer { _ = try? run("/bin/umount", ["--lazy", view.path]) }

            let readOnly = try PhotoLibrary(opening: view, timeZone: .gmt)
            #expect(readOnly.isReadOnly)
            #expect(try readOnly.list().map(\.id) == [stored.id])
            #expect(try readOnly.asset(id: stored.id).sha256 == stored.sha256)
            let report = try readOnly.verify()
            #expect(report.isClean && report.assetCount == 1 && report.fileCount == 1)
            let addError = #expect(throws: PhotoLibraryError.self) { try readOnly.add([4, 5, 6], width: 1, height: 1) }
            #expect(addError?.kind == .readOnly)
            #expect(addError?.description.hasPrefix("cannot write to the photo library \(view.path): it is read-only") == true)
            let repairError = #expect(throws: PhotoLibraryError.self) { try readOnly.repair() }
            #expect(repairError?.description == "cannot repair the photo library \(view.path): it is read-only")
            #expect(try PhotoLibrary(directory: view, timeZone: .gmt).isReadOnly, "adding opens it read-only too")
        }
    }

    @Test("creating a library on a read-only file system is an error that names the directory")
    func createOnReadOnlyVolume() async throws {
        try await Self.withTmpfs { volume in
            try run("/bin/mount", ["-o", "remount,ro", volume.path])
            let directory = volume.appendingPathComponent("Library")
            let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(directory: directory) }
            #expect(error?.kind == .readOnly)
            #expect(error?.description == "cannot create the folder \(directory.path): Read-only file system")
            #expect(error?.systemCallError?.errno == .readOnlyFileSystem)
        }
    }
}
