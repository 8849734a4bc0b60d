import Foundation
import PhotoLibrary
import Testing

/// Full and read-only volumes through an injected capacity provider, which needs no mount
/// (TmpfsVolumeTests runs the same checks on a real file system where mounting is permitted).
@Suite struct CapacityTests {
    static let sixtyFourMiB: Int64 = 64 << 20

    @Test("the reserve is 1% of the volume, at most 64 MiB", arguments: [
        (Int64(1 << 20), Int64(10_485)),
        (Int64(1 << 30), Int64(10_737_418)),
        (Int64(32_000_000_000), sixtyFourMiB),
    ])
    func reserve(total: Int64, expected: Int64) {
        #expect(VolumeCapacity(availableBytes: 0, totalBytes: total, isWritable: true).reserveBytes == expected)
    }

    @Test("a full disk is an error naming the free and needed bytes, thrown before anything is written")
    func fullDisk() async throws {
        let full = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1_000_000, totalBytes: 32_000_000_000, isWritable: true))
        try await withLibrary(capacity: full) { library in
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add([UInt8](repeating: 7, count: 2_000_000), width: 1920, height: 1080)
            }
            #expect(error?.kind == .insufficientSpace)
            #expect(error?.description == "not enough free space in the photo library \(library.directory.path): "
                + "1000000 bytes (1.0 MiB) free, 69108864 bytes (65.9 MiB) needed "
                + "(2000000 bytes to write + 67108864 bytes kept in reserve)")
            #expect(allFiles(under: library.directory).allSatisfy { $0.hasPrefix("catalog.sqlite") })
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }

    @Test("checkCapacity lets a camera refuse a photo before the shutter, from an estimate of its size")
    func checkBeforeCapture() async throws {
        let volume = VolumeCapacity(availableBytes: Self.sixtyFourMiB + 3_000_000, totalBytes: 32_000_000_000, isWritable: true)
        try await withLibrary(capacity: FixedCapacity(capacity: volume)) { library in
            try library.checkCapacity(forBytes: 3_000_000)
            #expect(throws: PhotoLibraryError.self) { try library.checkCapacity(forBytes: 3_000_001) }
        }
    }

    @Test("a read-only library directory is an error that names it")
    func readOnly() async throws {
        let readOnly = FixedCapacity(capacity: VolumeCapacity(availableBytes: 1 << 40, totalBytes: 1 << 41, isWritable: false))
        try await withLibrary(capacity: readOnly) { library in
            let error = #expect(throws: PhotoLibraryError.self) { try library.add([1, 2, 3], width: 1, height: 1) }
            #expect(error?.kind == .readOnly)
            #expect(error?.description == "cannot write to the photo library \(library.directory.path): it is read-only "
                + "(a read-only file system or no write permission)")
            let listed = try library.list()
            #expect(listed.isEmpty)
        }
    }
}
