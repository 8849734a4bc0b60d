import Foundation
@testable import PhotoLibrary
import Testing

@Suite struct VerifyRepairTests {
    /// A library with three photos taken on 2025-06-01.
    static func withThreePhotos(_ body: (PhotoLibrary, [Asset], [[UInt8]]) async throws -> Void) async throws {
        try await withLibrary { library in
            let photos = (0..<3).map { JPEGBytes.make(width: 64, height: 48, scanLength: 300 + $0) }
            let assets = try photos.enumerated().map { index, bytes in
                try library.add(bytes, createdAt: AddAndListTests.created + Double(index), width: 64, height: 48,
                                exposure: AddAndListTests.exposure)
            }
            try await body(library, assets, photos)
        }
    }

    @Test("a consistent library verifies clean")
    func cleanLibrary() async throws {
        try await Self.withThreePhotos { library, _, _ in
            let report = try library.verify()
            #expect(report.isClean)
            #expect([report.assetCount, report.fileCount, report.inProgressCount] as [Int] == [3, 3, 0])
            #expect(report.recordedProblems.isEmpty)
        }
    }

    @Test("verify reports each problem kind; repair fixes each; verify is then clean")
    func everyProblemKind() async throws {
        try await Self.withThreePhotos { library, assets, photos in
            let folder = library.directory.appendingPathComponent("2025/06/01")
            try FileManager.default.removeItem(at: library.fileURL(for: assets[0]))
            var corrupted = photos[1]
            corrupted[100] ^= 0x01
            try Data(corrupted).write(to: library.fileURL(for: assets[1]))
            let orphan = JPEGBytes.make(width: 800, height: 600)
            try Data(orphan).write(to: folder.appendingPathComponent("IMG_0042.jpg"))
            try Data("not a photo".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            try Data(photos[2].prefix(50)).write(to: folder.appendingPathComponent(".tmp-20250601-interrupted.jpg"))

            let found = try library.verify()
            #expect(!found.isClean)
            #expect(Set(found.issues.map { "\($0.kind.rawValue) \($0.path)" }) == [
                "missingFile \(assets[0].path)",
                "hashMismatch \(assets[1].path)",
                "orphanFile 2025/06/01/IMG_0042.jpg",
                "orphanFile 2025/06/01/notes.txt",
                "incompleteFile 2025/06/01/.tmp-20250601-interrupted.jpg",
            ])
            #expect(found.issues.first { $0.kind == .hashMismatch }?.detail.contains(assets[1].sha256) == true)

            let repair = try library.repair()
            #expect(Set(repair.actions.map { "\($0.kind.rawValue) \($0.path)" }) == [
                "markedMissing \(assets[0].path)",
                "markedDamaged \(assets[1].path)",
                "catalogued 2025/06/01/IMG_0042.jpg",
                "quarantined 2025/06/01/notes.txt",
                "removedIncomplete 2025/06/01/.tmp-20250601-interrupted.jpg",
            ])
            #expect(repair.unrepaired.isEmpty)

            let after = try library.verify()
            #expect(after.isClean)
            #expect(Set(after.recordedProblems.map(\.kind)) == [.missingFile, .hashMismatch])
            #expect(try library.asset(id: assets[0].id).state == .missing)
            #expect(try library.asset(id: assets[1].id).state == .damaged)
            let adopted = try library.asset(id: "IMG_0042")
            #expect([adopted.width, adopted.height, adopted.byteCount] as [Int] == [800, 600, orphan.count])
            #expect(adopted.sha256 == (try sha256sum(orphan)))
            #expect(adopted.exposure == nil && adopted.state == .ok)
            #expect(allFiles(under: library.directory.appendingPathComponent("Unrecognised")) == ["2025/06/01/notes.txt"])
            #expect(allFiles(under: folder) == [assets[1].path, assets[2].path, "2025/06/01/IMG_0042.jpg"]
                .map { String($0.dropFirst("2025/06/01/".count)) }.sorted())
        }
    }

    @Test("an intact file put back after repair marked it missing is recognised and marked ok again")
    func restoredFile() async throws {
        try await Self.withThreePhotos { library, assets, photos in
            let url = library.fileURL(for: assets[0])
            try FileManager.default.removeItem(at: url)
            _ = try library.repair()
            try Data(photos[0]).write(to: url)
            #expect(try library.verify().issues.map(\.kind) == [.restoredFile])
            #expect(try library.repair().actions.map(\.kind) == [.markedOK])
            #expect(try library.asset(id: assets[0].id) == assets[0])
            #expect(try library.verify().isClean)
        }
    }

    @Test("a file a live writer holds is counted in progress, not reported, and repair leaves it alone")
    func fileBeingWritten() async throws {
        try await Self.withThreePhotos { library, _, _ in
            let temporary = library.directory.appendingPathComponent("2025/06/01/.tmp-busy.jpg").path
            let writer = try PendingFile(temporaryPath: temporary, finalPath: library.directory.appendingPathComponent("2025/06/01/busy.jpg").path)
            let report = try library.verify()
            #expect(report.isClean && report.inProgressCount == 1)
            #expect(try library.repair().actions.isEmpty)
            #expect(FileManager.default.fileExists(atPath: temporary))
            withExtendedLifetime(writer) {}
        }
    }

    @Test("a catalogued path that cannot be read is reported and left for the user")
    func unreadableFile() async throws {
        try await Self.withThreePhotos { library, assets, _ in
            let url = library.fileURL(for: assets[2])
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            let issues = try library.verify().issues
            #expect(issues.map(\.kind) == [.unreadableFile])
            #expect(issues.first?.detail.contains("Is a directory") == true)
            let repair = try library.repair()
            #expect(repair.actions.isEmpty && repair.unrepaired == issues)
        }
    }

    @Test("reports encode to JSON with stable field names")
    func reportJSON() throws {
        let issue = VerificationReport.Issue(kind: .orphanFile, path: "2025/06/01/a.jpg", assetID: nil, detail: "d")
        let report = VerificationReport(directory: "/l", assetCount: 1, fileCount: 2, issues: [issue],
                                        recordedProblems: [], inProgressCount: 0)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json.map { Set($0.keys) } == ["directory", "assetCount", "fileCount", "issues", "recordedProblems",
                                              "inProgressCount", "isClean"])
        #expect(json?["isClean"] as? Bool == false)
        let issueJSON = (json?["issues"] as? [[String: Any]])?.first
        #expect(issueJSON.map { Set($0.keys) } == ["kind", "path", "assetID", "detail"])
        #expect(issueJSON?["assetID"] is NSNull)
        let repair = RepairReport(directory: "/l", actions: [.init(kind: .catalogued, path: "p", assetID: "a", detail: "d")],
                                  unrepaired: [issue])
        let repairJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(repair)) as? [String: Any]
        #expect(repairJSON.map { Set($0.keys) } == ["directory", "actions", "unrepaired"])
        let action = (repairJSON?["actions"] as? [[String: Any]])?.first
        #expect(action.map { Set($0.keys) } == ["kind", "path", "assetID", "detail"])
        #expect(action?["kind"] as? String == "catalogued")
    }
}
