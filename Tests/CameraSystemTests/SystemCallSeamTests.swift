import CameraSystem
import Testing

@Suite("SystemCallSeam")
struct SystemCallSeamTests {
    @Test("an interrupted call (EINTR) is retried until it succeeds")
    func retriesInterrupts() throws {
        let seam = SystemCallSeam()
        seam.fail(.open, with: .interrupted, times: 2)
        let file = try seam.run { () throws(SystemCallError) in try FileDescriptor.open("/dev/null", .readOnly) }
        #expect(file.path == "/dev/null")
        #expect(seam.calls(of: [.open]) == Array(repeating: .init(.open, "/dev/null"), count: 3))
    }

    @Test("a scripted failure hits only the calls whose path it names, once, then calls run for real")
    func scriptedFailureByPath() throws {
        let seam = SystemCallSeam()
        seam.fail(.open, with: .permissionDenied, pathContaining: "zero")
        try seam.run { () throws(SystemCallError) in
            _ = try FileDescriptor.open("/dev/null", .readOnly)
            #expect(throws: SystemCallError(operation: "open", path: "/dev/zero", errno: .permissionDenied)) {
                try FileDescriptor.open("/dev/zero", .readOnly)
            }
            _ = try FileDescriptor.open("/dev/zero", .readOnly)
        }
    }

    @Test("the seam records only inside run, and not the calls of other tasks")
    func scopedToTheTask() async throws {
        let seam = SystemCallSeam()
        _ = try FileDescriptor.open("/dev/null", .readOnly)
        try seam.run { () throws(SystemCallError) in _ = try FileSystem.linkStatus("/dev/null") }
        #expect(seam.calls == [.init(.lstat, "/dev/null")])
    }

    @Test("Errno names its value", arguments: [(Errno.noSpace, "No space left on device"), (.permissionDenied, "Permission denied")])
    func errnoDescription(_ errno: Errno, _ text: String) {
        #expect(errno.description == text)
    }
}
