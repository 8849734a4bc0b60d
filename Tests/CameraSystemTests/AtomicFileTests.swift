import CameraSystem
import Testing

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test("replace writes the new bytes over the old, in the order write → fsync → rename → fsync folder")
    func replaceSequence() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/image.png"
            try AtomicFile.replace(path, with: UnsafeRawBufferPointer(start: nil, count: 0))
            let seam = SystemCallSeam()
            try seam.run { try [UInt8]("new".utf8).withUnsafeBytes { try AtomicFile.replace(path, with: $0) } }
            #expect(try contents(path) == Array("new".utf8))
            let calls = seam.calls
            let temporary = try #require(calls.first?.path)
            #expect(temporary.hasPrefix("\(directory)/.image.png.") && temporary.hasSuffix(".tmp"))
            #expect(calls == [
                .init(.open, temporary), .init(.write, temporary), .init(.fsync, temporary),
                .init(.rename, temporary), .init(.open, directory), .init(.fsync, directory), .init(.close, directory),
                .init(.close, temporary),
            ])
            #expect(try FileSystem.entries(of: directory) == ["image.png"])
        }
    }

    @Test("ENOSPC on the fsync: the error names the temporary file, the old file stays, no temporary is left",
          arguments: [SystemFunction.fsync, .write, .rename])
    func failureKeepsTheOldFile(_ failing: SystemFunction) throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/image.png"
            try [UInt8]("old".utf8).withUnsafeBytes { try AtomicFile.replace(path, with: $0) }
            let seam = SystemCallSeam()
            seam.fail(failing, with: .noSpace)
            let error = #expect(throws: SystemCallError.self) {
                try seam.run { try [UInt8]("new".utf8).withUnsafeBytes { try AtomicFile.replace(path, with: $0) } }
            }
            #expect(error?.errno == .noSpace)
            #expect(error?.path?.hasPrefix("\(directory)/.image.png.") == true)
            #expect(try contents(path) == Array("old".utf8))
            #expect(try FileSystem.entries(of: directory) == ["image.png"])
        }
    }

    @Test("EACCES on open: nothing is created")
    func refusedOpen() throws {
        try withTemporaryDirectory { directory throws in
            let seam = SystemCallSeam()
            seam.fail(.open, with: .permissionDenied, pathContaining: directory)
            let error = #expect(throws: SystemCallError.self) {
                try seam.run { () throws(SystemCallError) in try AtomicFile.replace("\(directory)/f", with: UnsafeRawBufferPointer(start: nil, count: 0)) }
            }
            #expect(error?.operation == "create" && error?.errno == .permissionDenied)
            #expect(try FileSystem.entries(of: directory).isEmpty)
        }
    }
}
