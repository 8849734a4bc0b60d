import CameraSystem
import Foundation
@testable import PhotoLibrary
import Testing

/// RAW + JPEG pairs: one asset, two files, stored both or neither, each file verified, and a file
/// of a pair without the other reported and repaired, never dropped.
@Suite struct RawPairTests {
    static let jpeg = JPEGBytes.make(width: 64, height: 48, scanLength: 400)
    static let dng = Data((0..<5000).map { UInt8($0 % 251) })

    /// A library holding one pair.
    static func withPair(_ body: (PhotoLibrary, Asset) async throws -> Void) async throws {
        try await withLibrary { library in
            let asset = try library.add(jpeg, raw: dng, createdAt: AddAndListTests.created, width: 64, height: 48,
                                        exposure: AddAndListTests.exposure)
            try await body(library, asset)
        }
    }

    static func url(_ path: String, in library: PhotoLibrary) -> URL {
        library.directory.appendingPathComponent(path)
    }

    @Test("a pair is one row naming both files, listed with its DNG, and verifies clean")
    func onePairOneAsset() async throws {
        try await Self.withPair { library, asset in
            let raw = try #require(asset.raw)
            #expect(raw.path == "2025/06/01/\(asset.id).dng" && asset.path == "2025/06/01/\(asset.id).jpg")
            #expect(raw.byteCount == Self.dng.count)
            #expect(try Data(contentsOf: Self.url(raw.path, in: library)) == Self.dng)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")) == ["06/01/\(asset.id).dng", "06/01/\(asset.id).jpg"])
            #expect(try library.list() == [asset])
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(asset)) as? [String: Any])
            #expect((json["raw"] as? [String: Any])?["path"] as? String == raw.path)
            let report = try library.verify()
            #expect(report.isClean && report.assetCount == 1 && report.fileCount == 1, "\(report)")
        }
    }

    @Test("the DNG deleted: verify names it; repair marks the pair missing; the DNG back: ok again")
    func missingDNG() async throws {
        try await Self.withPair { library, asset in
            let raw = try #require(asset.raw)
            try FileManager.default.removeItem(at: Self.url(raw.path, in: library))
            let found = try library.verify()
            #expect(found.issues.map { "\($0.kind.rawValue) \($0.path) \($0.assetID ?? "")" } == ["missingFile \(raw.path) \(asset.id)"])
            let repair = try library.repair()
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path)" } == ["markedMissing \(raw.path)"])
            #expect(try library.list().first?.state == .missing)
            #expect(try library.verify().recordedProblems.map(\.path) == [raw.path])

            try Self.dng.write(to: Self.url(raw.path, in: library))
            #expect(try library.repair().actions.map(\.kind) == [.markedOK])
            #expect(try library.verify().isClean)
        }
    }

    @Test("a changed DNG is a hash mismatch by its path; a missing JPEG beside it wins as the pair's state")
    func damagedDNG() async throws {
        try await Self.withPair { library, asset in
            let raw = try #require(asset.raw)
            var changed = Self.dng
            changed[10] ^= 1
            try changed.write(to: Self.url(raw.path, in: library))
            #expect(try library.verify().issues.map { "\($0.kind.rawValue) \($0.path)" } == ["hashMismatch \(raw.path)"])

            try FileManager.default.removeItem(at: Self.url(asset.path, in: library))
            #expect(try library.verify().issues.map { "\($0.kind.rawValue) \($0.path)" }
                == ["hashMismatch \(raw.path)", "missingFile \(asset.path)"])
            _ = try library.repair()
            #expect(try library.list().first?.state == .missing)
            #expect(try library.verify().isClean, "the catalogue records the pair as missing; its DNG stays in place")
            #expect(FileManager.default.fileExists(atPath: Self.url(raw.path, in: library).path))
        }
    }

    @Test("a DNG that cannot be written (full disk at its fsync, injected): no JPEG, no DNG, no row, and the error says so")
    func failedDNGLeavesNothing() async throws {
        try await withLibrary { library in
            let seam = SystemCallSeam()
            seam.fail(.fsync, with: .noSpace, pathContaining: ".dng")
            let error = #expect(throws: PhotoLibraryError.self) {
                try seam.run { () throws(PhotoLibraryError) in
                    _ = try library.add(Self.jpeg, raw: Self.dng, createdAt: AddAndListTests.created, width: 64, height: 48)
                }
            }
            #expect(error?.kind == .insufficientSpace)
            #expect(error?.description.contains("its DNG could not be written") == true, "\(String(describing: error))")
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")).isEmpty)
        }
    }

    @Test("a pair whose row never came (a crash before the commit): repair catalogues the JPEG and gives it its DNG")
    func orphanPairRepaired() async throws {
        try await withLibrary { library in
            let folder = library.directory.appendingPathComponent("2025/06/01")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(Self.jpeg).write(to: folder.appendingPathComponent("IMG_7.jpg"))
            try Self.dng.write(to: folder.appendingPathComponent("IMG_7.dng"))
            _ = try library.list()
            #expect(Set(try library.verify().issues.map { "\($0.kind.rawValue) \($0.path)" })
                == ["orphanFile 2025/06/01/IMG_7.jpg", "orphanRawFile 2025/06/01/IMG_7.dng"])
            let repair = try library.repair()
            #expect(repair.actions.map { "\($0.kind.rawValue) \($0.path)" }
                == ["catalogued 2025/06/01/IMG_7.jpg", "attachedRaw 2025/06/01/IMG_7.dng"])
            let asset = try #require(try library.list().first)
            #expect(asset.raw?.path == "2025/06/01/IMG_7.dng" && asset.raw?.byteCount == Self.dng.count)
            #expect(try library.verify().isClean)
        }
    }

    @Test("a DNG without its photo is reported and moved to Unrecognised/, not deleted")
    func lonelyDNGQuarantined() async throws {
        try await withLibrary { library in
            let folder = library.directory.appendingPathComponent("2025/06/01")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.dng.write(to: folder.appendingPathComponent("IMG_8.dng"))
            _ = try library.list()
            #expect(try library.verify().issues.map { "\($0.kind.rawValue) \($0.path)" } == ["orphanRawFile 2025/06/01/IMG_8.dng"])
            #expect(try library.repair().actions.map { "\($0.kind.rawValue) \($0.path)" } == ["quarantined 2025/06/01/IMG_8.dng"])
            #expect(try Data(contentsOf: library.directory.appendingPathComponent("Unrecognised/2025/06/01/IMG_8.dng")) == Self.dng)
            #expect(try library.verify().isClean)
        }
    }
}
