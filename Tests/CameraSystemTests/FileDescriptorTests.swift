import CameraSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("FileDescriptor")
struct FileDescriptorTests {
    @Test("write, pwrite, fstat and read back a real file")
    func writeAndRead() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/file"
            let file = try FileDescriptor.open(path, .readWrite, options: [.create, .exclusiveCreate])
            try [UInt8]("hello world".utf8).withUnsafeBytes { try file.writeAll($0) }
            #expect(try [UInt8]("J".utf8).withUnsafeBytes { try file.write($0, at: 6) } == 1)
            try file.sync()
            let status = try file.status()
            #expect(status.kind == .regularFile && status.byteCount == 11 && status.permissions == 0o644)
            let reader = try FileDescriptor.open(path, .readOnly)
            #expect(String(decoding: try reader.readAll(), as: UTF8.self) == "hello Jorld")
        }
    }

    @Test("opening a file that is not there throws the path, the operation and ENOENT")
    func missingFile() throws {
        let error = #expect(throws: SystemCallError.self) { try FileDescriptor.open("/nonexistent/x", .readOnly) }
        #expect(error == SystemCallError(operation: "open", path: "/nonexistent/x", errno: .noSuchFileOrDirectory))
        #expect(error?.description == "cannot open /nonexistent/x: No such file or directory")
    }

    @Test("an exclusive create of an existing file fails with EEXIST")
    func exclusiveCreate() throws {
        try withTemporaryDirectory { directory throws in
            _ = try FileDescriptor.open("\(directory)/f", .writeOnly, options: [.create, .exclusiveCreate])
            let error = #expect(throws: SystemCallError.self) {
                try FileDescriptor.open("\(directory)/f", .writeOnly, options: [.create, .exclusiveCreate])
            }
            #expect(error?.errno == .fileExists)
        }
    }

    @Test("flock without waiting: a second open file of a locked file is refused until the first closes")
    func lockContention() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/locked"
            var holder: FileDescriptor? = try FileDescriptor.open(path, .writeOnly, options: .create)
            #expect(try holder?.lock(waiting: false) == true)
            let other = try FileDescriptor.open(path, .readOnly)
            #expect(try other.lock(waiting: false) == false)
            holder = nil
            #expect(try other.lock(waiting: false) == true)
        }
    }

    @Test("the descriptor closes when the object is released")
    func closesOnRelease() throws {
        var file: FileDescriptor? = try FileDescriptor.open("/dev/null", .readOnly)
        let raw = try #require(file?.rawValue)
        #expect(fcntl(raw, F_GETFD) >= 0)
        file = nil
        #expect(fcntl(raw, F_GETFD) == -1 && errno == EBADF)
    }

    @Test("ioctl on /dev/null: a request it does not know fails with ENOTTY, named")
    func controlOnDevNull() throws {
        let null = try FileDescriptor.open("/dev/null", .readWrite)
        var count: Int32 = 0
        let error = #expect(throws: SystemCallError.self) {
            try null.control(UInt(FIONREAD), &count, operation: "query the bytes waiting in")
        }
        #expect(error == SystemCallError(operation: "query the bytes waiting in", path: "/dev/null", errno: .inappropriateControl))
    }

    @Test("ioctl FIONREAD on a regular file reports the bytes left to read")
    func controlOnFile() throws {
        try withTemporaryDirectory { directory throws in
            let file = try FileDescriptor.open("\(directory)/f", .readWrite, options: .create)
            try [UInt8](repeating: 7, count: 42).withUnsafeBytes { try file.writeAll($0) }
            let reader = try FileDescriptor.open("\(directory)/f", .readOnly)
            var count: Int32 = 0
            try reader.control(UInt(FIONREAD), &count, operation: "query the bytes waiting in")
            #expect(count == 42)
        }
    }

    @Test("poll: /dev/null is readable and writable at once")
    func pollDevNull() throws {
        let null = try FileDescriptor.open("/dev/null", .readWrite)
        #expect(try null.poll(for: [.readable, .writable], timeoutMilliseconds: 0) == [.readable, .writable])
    }

    @Test("mmap shows a file's bytes; munmap on release")
    func mapFile() throws {
        try withTemporaryDirectory { directory throws in
            let file = try FileDescriptor.open("\(directory)/f", .readWrite, options: .create)
            try [UInt8](0..<100).withUnsafeBytes { try file.writeAll($0) }
            let region = try MappedRegion(file, length: 100)
            #expect(Array(region.bytes[10..<13]) == [10, 11, 12])
        }
    }

    @Test("mmap past what a device allows fails with its errno, named")
    func mapFailure() throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        let error = #expect(throws: SystemCallError.self) { try MappedRegion(null, length: 4096) }
        #expect(error?.operation == "map" && error?.path == "/dev/null" && error?.errno.rawValue == ENODEV)
    }
}
