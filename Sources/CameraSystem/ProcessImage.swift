import Glibc

/// The program this process runs: where its file is, and replacing it with another program, as
/// `camerasun bench` hands its arguments to the `camerasun-bench` beside it.
public enum ProcessImage {
    /// The file of the running program (readlink(2) of `/proc/self/exe`).
    public static func path() throws(SystemCallError) -> String {
        let link = "/proc/self/exe"
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try systemCall(.readlink, "read the link", link) { readlink(link, &buffer, buffer.count - 1) }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of the program `name` in the folder of the running one (which may not exist).
    public static func sibling(_ name: String) throws(SystemCallError) -> String {
        let running = try path()
        let folder = running.lastIndex(of: "/").map { running[..<$0] } ?? "."
        return "\(folder)/\(name)"
    }

    /// Runs the program at `path` with `arguments` (its `argv[0]` first) in this process's place
    /// (execv(3)): the process id, standard input, output and error stay, and its exit status is
    /// the process's. Every signal is unblocked first, since the program inherits the calling
    /// thread's signal mask and the concurrency pool's threads block them. Returns only by throwing.
    public static func replace(with path: String, arguments: [String]) throws(SystemCallError) -> Never {
        var signals = sigset_t()
        sigemptyset(&signals)
        pthread_sigmask(SIG_SETMASK, &signals, nil)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        try systemCall(.execv, "run", path) { execv(path, argv) }
        fatalError("execv(\(path)) returned without an error")
    }
}
