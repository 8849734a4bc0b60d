import CameraSystem
import Foundation
@testable import PhotoLibrary
import Testing

@Suite struct AtomicWriteTests {
    @Test("after add the dated folder holds the file with identical bytes and no temporary file")
    func noTemporaryFileLeft() async throws {
        let bytes = JPEGBytes.make(width: 320, height: 240, scanLength: 100_000)
        try await withLibrary { library in
            let asset = try library.add(Data(bytes), createdAt: AddAndListTests.created, width: 320, height: 240)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")) == ["06/01/\(asset.id).jpg"])
            #expect(try Data(contentsOf: library.fileURL(for: asset)) == Data(bytes))
        }
    }

    @Test("a write that fails leaves no file, no temporary file and no row, and says where it failed")
    func failedWriteLeavesNothing() async throws {
        try await withLibrary { library in
            // A plain file where the year folder should be: the dated folder cannot be created.
            let blocker = library.directory.appendingPathComponent("2025")
            try Data("in the way".utf8).write(to: blocker)
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add([1, 2, 3], createdAt: AddAndListTests.created, width: 1, height: 1)
            }
            #expect(error?.kind == .fileSystem)
            #expect(error?.description.contains("\(blocker.path)/06") == true)
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(allFiles(under: library.directory).filter { !$0.hasPrefix("catalog.sqlite") } == ["2025"])
        }
    }

    @Test("a pending file is invisible under its final name until published, and removed if never published")
    func pendingFileLifecycle() async throws {
        try await withTemporaryDirectory { directory in
            let temporary = directory.appendingPathComponent(".tmp-a.jpg").path
            let final = directory.appendingPathComponent("a.jpg").path
            do {
                let pending = try PendingFile(temporaryPath: temporary, finalPath: final)
                #expect(FileManager.default.fileExists(atPath: temporary))
                #expect(!FileManager.default.fileExists(atPath: final))
                withExtendedLifetime(pending) {}
            }
            #expect(allFiles(under: directory).isEmpty, "an unpublished file is removed when released")

            let pending = try PendingFile(temporaryPath: temporary, finalPath: final)
            try [UInt8]([7, 8, 9]).withUnsafeBytes { try pending.publish($0) }
            #expect(allFiles(under: directory) == ["a.jpg"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: final)) == Data([7, 8, 9]))
        }
    }

    @Test("a full disk at the file's fsync (injected): the error says so, and no file, temporary file or row is left")
    func fullDiskAtFlush() async throws {
        try await withLibrary { library in
            let seam = SystemCallSeam()
            seam.fail(.fsync, with: .noSpace, pathContaining: ".tmp-")
            let error = #expect(throws: PhotoLibraryError.self) {
                try seam.run { () throws(PhotoLibraryError) in
                    _ = try library.add([1, 2, 3], createdAt: AddAndListTests.created, width: 1, height: 1)
                }
            }
            #expect(error?.kind == .insufficientSpace)
            #expect(error?.systemCallError?.errno == .noSpace && error?.systemCallError?.operation == "flush")
            #expect(error?.description.hasPrefix("cannot flush \(library.directory.path)/2025/06/01/.tmp-") == true)
            #expect(error?.description.hasSuffix(".jpg: No space left on device") == true, "\(String(describing: error))")
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")).isEmpty)
            let temporaryFileCalls = seam.calls.filter { $0.path?.contains(".tmp-") == true }.map(\.function)
            #expect(temporaryFileCalls == [.open, .flock, .write, .fsync, .unlink, .close])
        }
    }
}
