import CameraCore
import Foundation

/// A child process started with every signal unblocked and at its default action, so that it
/// obeys SIGTERM and SIGQUIT. `Foundation.Process` passes on the signal mask of the thread that
/// starts it, and the concurrency pool's threads block signals: a server started from a test would
/// ignore all but SIGKILL. Its standard input and output are /dev/null, its standard error `errors`;
/// it inherits no other descriptor.
public final class SpawnedProcess: Sendable {
    /// A child that could not be started or ended.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    public let executable: String
    /// The wait status once reaped, nil while it runs.
    private let exitStatus = Locked<Int32?>(nil)

    public init(_ executable: String, _ arguments: [String], errors: String = "/dev/null") throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&files, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing else of the test's: an inherited end of the socket by which `Foundation.Process`
        // sees another child exit kept that child's wait going for ever (a server outliving it).
        // glibc 2.34's closefrom action, which Swift's Glibc module leaves out.
        guard let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw Failure(description: "cannot start \(executable): posix_spawn_file_actions_addclosefrom_np is missing — it needs glibc 2.34")
        }
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&files, 3)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &files, &attributes, argv, environ)
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status))) — is it installed?")
        }
        self.pid = pid
        self.executable = executable
    }

    /// Whether it still runs; reaps it once it has exited.
    public var isRunning: Bool {
        exitStatus.withLock { exitStatus in
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exitStatus = status
            return false
        }
    }

    /// How it ended ("exit status 1", "signal 9"), once it has.
    public var termination: String {
        guard !isRunning, let status = exitStatus.withLock({ $0 }) else { return "running" }
        return status & 0x7f == 0 ? "exit status \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Sends `signal` and waits for the exit, then SIGKILL if it has not exited within 10 s; throws
    /// if even that fails.
    public func end(with signal: Int32) async throws {
        self.signal(signal)
        if try await eventually(timeout: .seconds(10), { !isRunning }) { return }
        self.signal(SIGKILL)
        guard try await eventually(timeout: .seconds(10), { !isRunning }) else {
            throw Failure(description: "process \(pid) (\(executable)) did not exit on signal \(signal) nor on SIGKILL")
        }
    }
}
