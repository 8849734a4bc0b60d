import CameraCore
import Foundation

/// A real RTMP server for the live-push tests: Debian's nginx with its RTMP module (`make deps`
/// installs nginx and libnginx-mod-rtmp), run as the current user on 127.0.0.1 at a free port
/// with the repository's config, Tests/Servers/nginx-rtmp.conf. Everything it writes (config, pid
/// file, error log, recordings) is in a folder of its own.
///
/// Application `live` records each stream it receives (`recordings()`); application `refused`
/// refuses every key the way nginx-rtmp refuses a publish it denies: it drops the connection without
/// an answer (after the publish, which libavformat takes as accepted). The one refusal nginx-rtmp
/// answers is a key already in use — `onStatus` `NetStream.Publish.BadName`, level error, "Already
/// publishing" — which `withKeyInUse` stages. `pause()` and `resume()` hang it and let it go on, as
/// a server that stops taking data. Start one with `withNginxRTMP`, which always stops it:
///
/// ```swift
/// try await withNginxRTMP { server in
///     try await push(to: server.url(key: "cam1"))
///     #expect(try server.recordings().count == 1, "\(server.errorLog())")
/// }
/// ```
public final class NginxRTMPServer: Sendable {
    /// nginx missing, failing to start or to stop; the message carries the end of its error log.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The port it listens on, the same after `restart()`.
    public let port: UInt16
    private let folder: URL
    private let state: Locked<State>

    private struct State {
        /// The running nginx, nil once killed or stopped.
        var process: SpawnedProcess?
        /// How many times nginx was started: each start records into a folder of its own.
        var launches: Int
    }

    static let executable = "/usr/sbin/nginx"
    static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"
    /// The config, in the package's Tests folder.
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Servers/nginx-rtmp.conf")

    /// Starts nginx with its files in `folder` on a free port (another if that one was taken in the
    /// meantime) and returns once the port accepts connections.
    public static func start(in folder: URL) async throws -> NginxRTMPServer {
        for path in [executable, module] where !FileManager.default.fileExists(atPath: path) {
            throw Failure(description: "\(path) is missing — run make deps (installs nginx and libnginx-mod-rtmp)")
        }
        var attempt = 1
        while true {
            let port = try LoopbackSocket.freePort()
            do {
                let process = try await launch(port: port, folder: folder, launch: 1)
                return NginxRTMPServer(port: port, folder: folder, process: process)
            } catch let failure as Failure where failure.description.contains("Address already in use") && attempt < 5 {
                attempt += 1
            }
        }
    }

    private init(port: UInt16, folder: URL, process: SpawnedProcess) {
        self.port = port
        self.folder = folder
        state = Locked(State(process: process, launches: 1))
    }

    /// `rtmp://127.0.0.1:PORT/live/KEY`: a stream nginx records.
    public func url(key: String) -> String {
        "rtmp://127.0.0.1:\(port)/live/\(key)"
    }

    /// `rtmp://127.0.0.1:PORT/refused/KEY`: a publish nginx refuses by dropping the connection, without an answer.
    public func refusedURL(key: String) -> String {
        "rtmp://127.0.0.1:\(port)/refused/\(key)"
    }

    /// The recorded FLV files, in the order their streams began (`KEY-UNIXTIME.flv`, one folder per
    /// start of nginx). A file grows while its stream lasts; `publishesEnded()` tells when it is whole.
    /// Two streams of one key beginning in the same second share a file: nginx names them by the second.
    public func recordings() throws -> [URL] {
        let launches = state.withLock { $0.launches }
        return try (1...launches).flatMap { launch in
            let files = try FileManager.default.contentsOfDirectory(at: recordingFolder(launch), includingPropertiesForKeys: nil)
            return files.filter { $0.pathExtension == "flv" }.sorted { first, second in
                (Self.startTime(of: first), first.lastPathComponent) < (Self.startTime(of: second), second.lastPathComponent)
            }
        }
    }

    /// How many publishers nginx has seen come and go since it was first started: connections of
    /// its log with a `publish` and then a `disconnect` (a refused publish counts, one cut by `kill()`
    /// does not). nginx has closed a publisher's recording before it logs the disconnect, so
    /// `eventually { server.publishesEnded() == n }` waits until the recordings are whole.
    public func publishesEnded() -> Int {
        logs().reduce(0) { count, log in
            var published = Set<Substring>()
            var ended = 0
            for line in log.split(separator: "\n") {
                guard let star = line.firstIndex(of: "*") else { continue }
                let connection = line[star...].prefix { $0 != " " }
                if line.contains(" publish: ") { published.insert(connection) }
                if line.contains(" disconnect,"), published.remove(connection) != nil { ended += 1 }
            }
            return count + ended
        }
    }

    /// nginx's error log (info level: each connection, publish, refusal and disconnect), each start's
    /// after the previous one's, for failure messages.
    public func errorLog() -> String {
        logs().enumerated().map { "— start \($0.offset + 1):\n\($0.element)" }.joined(separator: "\n")
    }

    private func logs() -> [String] {
        (1...state.withLock { $0.launches }).map { Self.errorLogText(launch: $0, in: folder) }
    }

    /// Whether nginx is running (not killed, stopped, or exited by itself).
    public var isRunning: Bool {
        state.withLock { $0.process }?.isRunning ?? false
    }

    /// Stops nginx with SIGSTOP, as a hung server: its connections stay open and take nothing more
    /// once the kernel's buffers are full, and new ones wait unanswered, until `resume()`.
    public func pause() {
        state.withLock { $0.process }?.signal(SIGSTOP)
    }

    /// Lets a paused nginx go on (SIGCONT).
    public func resume() {
        state.withLock { $0.process }?.signal(SIGCONT)
    }

    /// Runs `body` while ffmpeg publishes a test pattern to `url(key: key)`, so that nginx answers
    /// another publish of that key with its refusal (`NetStream.Publish.BadName`, "Already
    /// publishing"); ffmpeg is ended by its PID afterwards. Its publish counts in `publishesEnded()`.
    public func withKeyInUse<R>(_ key: String, _ body: () async throws -> R) async throws -> R {
        let errors = folder.appendingPathComponent("publisher-\(key).log")
        let publisher = try SpawnedProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10",
                                                            "-c:v", "libx264", "-g", "10", "-f", "flv", url(key: key)], errors: errors.path)
        do {
            let publishing = try await eventually { !publisher.isRunning || errorLog().contains("publish: name='\(key)'") }
            guard publishing, publisher.isRunning else {
                throw Failure(description: "ffmpeg did not publish \(key) (\(publisher.termination)): "
                    + ((try? String(contentsOf: errors, encoding: .utf8)) ?? ""))
            }
            let result = try await body()
            try await publisher.end(with: SIGTERM)
            return result
        } catch {
            try? await publisher.end(with: SIGKILL)
            throw error
        }
    }

    /// Kills nginx with SIGKILL, as a crash would: publishers' connections are cut, recordings left as they were.
    public func kill() async throws {
        try await end(with: SIGKILL)
    }

    /// Starts nginx again on the same port after `kill()` or `stop()`, recording into a new folder.
    public func restart() async throws {
        let launch = try state.withLock { state in
            guard state.process == nil else { throw Failure(description: "restart() of an nginx that runs — kill() or stop() it first") }
            state.launches += 1
            return state.launches
        }
        let process = try await Self.launch(port: port, folder: folder, launch: launch)
        state.withLock { $0.process = process }
    }

    /// Stops nginx by its PID (SIGTERM: it closes its connections and recordings and exits; SIGKILL
    /// if it has not within 10 s). Nothing happens if it is not running.
    public func stop() async throws {
        try await end(with: SIGTERM)
    }

    /// Ends nginx with `signal`, paused or not (SIGCONT lets a paused one take it).
    private func end(with signal: Int32) async throws {
        guard let process = state.withLock({ $0.process.take() }) else { return }
        process.signal(SIGCONT)
        try await process.end(with: signal)
    }

    /// Runs nginx on `port` recording into the folder of `launch`, and waits until the port accepts
    /// connections; throws with the error log if nginx exits first.
    private static func launch(port: UInt16, folder: URL, launch: Int) async throws -> SpawnedProcess {
        let recordings = recordingFolder(launch, in: folder)
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let errorLog = errorLogFile(launch: launch, in: folder)
        let config = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@PORT@", with: String(port))
            .replacingOccurrences(of: "@RECORDINGS@", with: recordings.path)
            .replacingOccurrences(of: "@ERROR_LOG@", with: errorLog.path)
        try config.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)

        return try await run(["-p", folder.path, "-c", "nginx.conf", "-e", errorLog.path], listeningOn: port, errorLog: errorLog)
    }

    /// Runs nginx with `arguments` and waits until `port` accepts connections; throws with the
    /// error log if nginx exits first or does not listen within 10 s.
    static func run(_ arguments: [String], listeningOn port: UInt16, errorLog: URL) async throws -> SpawnedProcess {
        let process = try SpawnedProcess(executable, arguments, errors: errorLog.path)
        let listening = try await eventually(timeout: .seconds(10)) {
            guard process.isRunning else { return true }
            guard let socket = try? LoopbackSocket.connect(to: port) else { return false }
            Glibc.close(socket)
            return true
        }
        guard listening, process.isRunning else {
            try await process.end(with: SIGKILL)
            let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "(no error log)"
            throw Failure(description: "nginx did not start listening on 127.0.0.1:\(port) (\(listening ? process.termination : "no connection within 10 s")); "
                + "its error log:\n\(log)")
        }
        return process
    }

    private static func errorLogFile(launch: Int, in folder: URL) -> URL {
        folder.appendingPathComponent("error-\(launch).log")
    }

    private static func errorLogText(launch: Int, in folder: URL) -> String {
        (try? String(contentsOf: errorLogFile(launch: launch, in: folder), encoding: .utf8)) ?? "(no error log)"
    }

    private func recordingFolder(_ launch: Int) -> URL {
        Self.recordingFolder(launch, in: folder)
    }

    private static func recordingFolder(_ launch: Int, in folder: URL) -> URL {
        folder.appendingPathComponent("recordings/\(launch)", isDirectory: true)
    }

    /// The UNIXTIME of a recording named `KEY-UNIXTIME.flv`.
    private static func startTime(of recording: URL) -> Int {
        Int(recording.deletingPathExtension().lastPathComponent.split(separator: "-").last ?? "") ?? 0
    }
}

/// Runs `body` with nginx-rtmp started in a scratch folder, and stops it when `body` returns or
/// throws; an error thrown by `body` comes back with nginx's error log appended.
public func withNginxRTMP<R>(_ body: (NginxRTMPServer) async throws -> R) async throws -> R {
    try await withScratchDirectory { folder in
        let server = try await NginxRTMPServer.start(in: folder)
        let result: R
        do {
            result = try await body(server)
        } catch {
            try? await server.stop()
            throw NginxRTMPServer.Failure(description: "\(error)\n— nginx's error log:\n\(server.errorLog())")
        }
        try await server.stop()
        return result
    }
}
