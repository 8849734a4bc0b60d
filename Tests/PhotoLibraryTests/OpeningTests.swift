import CameraSystem
import Foundation
@testable import PhotoLibrary
import Testing

/// Opening a library without creating one, and what the library's errors say (what failed, never
/// a command line's remedy).
@Suite struct OpeningTests {
    @Test("opening a directory that does not exist is an error naming it, and creates nothing")
    func missingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("Nowhere")
            let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(opening: missing) }
            #expect(error?.kind == .notALibrary)
            #expect(error?.description == "\(missing.path) is not a photo library: it does not exist")
            #expect(!FileManager.default.fileExists(atPath: missing.path))
        }
    }

    @Test("opening a folder without a catalogue, or a file, is an error saying what it is, and changes nothing")
    func notALibrary() async throws {
        try await withTemporaryDirectory { directory in
            let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(opening: directory) }
            #expect(error?.description == "\(directory.path) is not a photo library: it has no catalog.sqlite")
            #expect(allFiles(under: directory).isEmpty)
            let file = directory.appendingPathComponent("photo.jpg")
            try Data([1]).write(to: file)
            let fileError = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(opening: file) }
            #expect(fileError?.description == "\(file.path) is not a photo library: it is not a folder")
        }
    }

    @Test("a library created by adding opens without creating, with its assets")
    func opensExisting() async throws {
        try await withLibrary { library in
            let asset = try library.add([1, 2, 3], createdAt: AddAndListTests.created, width: 1, height: 1)
            let opened = try PhotoLibrary(opening: library.directory, timeZone: .gmt)
            #expect(try opened.list() == [asset] && !opened.isReadOnly)
        }
    }

    @Test("the library's errors say what failed and keep the cause, without a command line's flags or commands")
    func errorsCarryNoRemedies() async throws {
        let full = FixedCapacity(capacity: VolumeCapacity(availableBytes: 0, totalBytes: 1 << 30, isWritable: true))
        let readOnly = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1 << 30, totalBytes: 1 << 31, isWritable: false))
        var errors: [PhotoLibraryError] = []
        for capacity in [full, readOnly] {
            try await withLibrary(capacity: capacity) { library in
                errors += [caught { () throws(PhotoLibraryError) in _ = try library.add([1], width: 1, height: 1) }].compactMap { $0 }
            }
        }
        try await withLibrary { library in
            errors += [caught { () throws(PhotoLibraryError) in _ = try library.asset(id: "nope") }].compactMap { $0 }
            try Data("in the way".utf8).write(to: library.directory.appendingPathComponent("2025"))
            errors += [caught { () throws(PhotoLibraryError) in
                _ = try library.add([1], createdAt: AddAndListTests.created, width: 1, height: 1)
            }].compactMap { $0 }
        }
        errors += [caught { () throws(PhotoLibraryError) in _ = try PhotoLibrary(opening: URL(fileURLWithPath: "/nonexistent-camerasun")) }]
            .compactMap { $0 }
        #expect(errors.map(\.kind) == [.insufficientSpace, .readOnly, .notFound, .fileSystem, .notALibrary])
        for error in errors {
            #expect(!error.description.contains("--library") && !error.description.contains("camerasun library")
                    && !error.description.contains(" — "), "\(error)")
        }
        #expect(errors[3].systemCallError?.operation == "create the folder" && errors[3].systemCallError?.errno == .notDirectory)
    }
}

/// The error `body` throws, or nil when it returns.
private func caught(_ body: () throws(PhotoLibraryError) -> Void) -> PhotoLibraryError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
