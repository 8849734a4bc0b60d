import CameraSystem
import Testing

@Suite("FileSystem")
struct FileSystemTests {
    @Test("mkdir creates once and reports an existing entry; lstat and stat tell what is there")
    func directories() throws {
        try withTemporaryDirectory { directory throws in
            #expect(try FileSystem.makeDirectory("\(directory)/a") == true)
            #expect(try FileSystem.makeDirectory("\(directory)/a") == false)
            #expect(try FileSystem.linkStatus("\(directory)/a")?.kind == .directory)
            #expect(try FileSystem.linkStatus("\(directory)/missing") == nil)
            #expect(try FileSystem.status("\(directory)/missing/below") == nil)
            let error = #expect(throws: SystemCallError.self) { try FileSystem.makeDirectory("\(directory)/x/y") }
            #expect(error == SystemCallError(operation: "create the folder", path: "\(directory)/x/y", errno: .noSuchFileOrDirectory))
        }
    }

    @Test("entries lists names sorted without . and ..; rename and remove change them")
    func entriesRenameRemove() throws {
        try withTemporaryDirectory { directory throws in
            for name in ["b", "a", "c"] { _ = try FileDescriptor.open("\(directory)/\(name)", .writeOnly, options: .create) }
            #expect(try FileSystem.entries(of: directory) == ["a", "b", "c"])
            try FileSystem.rename("\(directory)/a", to: "\(directory)/d")
            try FileSystem.remove("\(directory)/b")
            try FileSystem.syncDirectory(directory)
            #expect(try FileSystem.entries(of: directory) == ["c", "d"])
            #expect(throws: SystemCallError(operation: "list", path: "\(directory)/none", errno: .noSuchFileOrDirectory)) {
                try FileSystem.entries(of: "\(directory)/none")
            }
        }
    }

    @Test("statvfs measures the volume; the temporary directory is writable")
    func volume() throws {
        try withTemporaryDirectory { directory throws in
            let volume = try FileSystem.volumeStatus(directory)
            #expect(volume.totalBytes > 0 && volume.availableBytes <= volume.totalBytes && !volume.isReadOnly)
            #expect(try FileSystem.isWritable(directory))
            #expect(try FileSystem.volumeStatus("/proc").isReadOnly == false)
        }
    }

    @Test("parent of a path", arguments: [("/a/b/c", "/a/b"), ("/c", "/"), ("c", "."), ("a/b", "a")])
    func parent(_ path: String, _ expected: String) {
        #expect(FileSystem.parent(of: path) == expected)
    }
}
