import Foundation
@testable import PhotoLibrary
import Testing

/// A photo whose file was written but whose catalogue row cannot be committed (a full disk at
/// COMMIT, a broken catalogue): the library removes the file again, so the caller's copy of the
/// bytes is the only one and the library holds neither a stray file nor a row.
@Suite struct CommitFailureTests {
    @Test("when the row's insert fails, the error says the photo was not saved and its file is gone")
    func insertFailureRemovesTheFile() async throws {
        try await withLibrary { library in
            try library.withCatalog { catalog throws(SQLiteError) in
                try catalog.connection.run("""
                    CREATE TRIGGER refuse_rows BEFORE INSERT ON assets BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
            }
            let error = #expect(throws: PhotoLibraryError.self) {
                try library.add(JPEGBytes.make(width: 4, height: 4), createdAt: AddAndListTests.created, width: 4, height: 4)
            }
            #expect(error?.kind == .catalog && error?.sqliteResultCode != nil)
            let description = error?.description ?? ""
            #expect(description.hasPrefix("the photo was not saved: its catalogue row could not be committed, so its file "
                + "\(library.directory.path)/2025/06/01/"), "\(description)")
            #expect(description.contains(".jpg was removed again: catalogue ") && description.contains("database or disk is full"),
                    "\(description)")
            #expect(allFiles(under: library.directory.appendingPathComponent("2025")).isEmpty)
            let listed = try library.list()
            #expect(listed.isEmpty)
            #expect(try library.verify().isClean)
        }
    }
}
