import Foundation
import PhotoLibrary
import Testing

@Suite struct ConcurrencyTests {
    @Test("100 concurrent adds give 100 files, 100 rows and 100 unique ids, and verify is clean")
    func hundredConcurrentAdds() async throws {
        try await withLibrary { library in
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let bytes = JPEGBytes.make(width: 64, height: 48, scanLength: 1000 + index)
                        return try library.add(bytes, createdAt: AddAndListTests.created, width: 64, height: 48).id
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 100)
            #expect(Set(try library.list().map(\.id)) == Set(ids))
            #expect(allFiles(under: library.directory.appendingPathComponent("2025/06/01")) == ids.map { "\($0).jpg" }.sorted())
            let report = try library.verify()
            #expect(report.isClean && report.assetCount == 100 && report.fileCount == 100)
        }
    }

    @Test("verify while photos are being added never reports a file in flight as orphan or incomplete")
    func verifyDuringAdds() async throws {
        try await withLibrary { library in
            let reports = try await withThrowingTaskGroup(of: [VerificationReport].self) { group in
                for index in 0..<60 {
                    group.addTask {
                        _ = try library.add(JPEGBytes.make(width: 64, height: 48, scanLength: 20_000 + index), width: 64, height: 48)
                        return []
                    }
                }
                group.addTask { try (0..<20).map { _ in try library.verify() } }
                return try await group.reduce(into: [VerificationReport]()) { $0 += $1 }
            }
            #expect(reports.count == 20)
            #expect(reports.flatMap(\.issues) == [])
            #expect(try library.verify().assetCount == 60)
        }
    }

    @Test("two libraries open on one directory (as two processes would be) add concurrently without losing a row")
    func twoConnections() async throws {
        try await withLibrary { first in
            let second = try PhotoLibrary(directory: first.directory, timeZone: .gmt)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let library = index.isMultiple(of: 2) ? first : second
                    group.addTask { _ = try library.add([UInt8(index)], width: 1, height: 1) }
                }
                try await group.waitForAll()
            }
            #expect(try first.list().count == 40)
            #expect(try second.list().count == 40)
        }
    }
}
