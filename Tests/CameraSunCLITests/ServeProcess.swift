@testable import CameraSunCLI
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// A running `camerasun serve` for a test: started on a free port with a library of its own,
/// ready once it has printed its URL, stopped by its process id (Ctrl-C, then a kill if it hangs).
/// Every wait runs on a thread of its own (`onOwnThread`), never on the concurrency pool that the
/// other suites' servers and tasks need.
final class ServeProcess: Sendable {
    /// The URL it printed, e.g. `http://127.0.0.1:41939/` (with `?token=` when it needs one).
    let url: String
    let port: UInt16
    let library: URL
    private let process: Locked<Process>
    private let scratch: URL

    /// The optimized binary the acceptance tests need (`make test` sets `CAMERASUN_RELEASE_BINARY`
    /// to its build's): real-time capture at 960×540 needs an optimized build.
    static let releaseBinary: URL? = ProcessInfo.processInfo.environment["CAMERASUN_RELEASE_BINARY"]
        .map { URL(fileURLWithPath: $0) }
        .flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

    /// Starts `binary serve --listen LISTEN --library TMP arguments…`, with `environment` added to
    /// the test's own, and waits (at most `timeout` seconds) for its URL line.
    static func start(binary: URL? = CameraSunBinary.url, _ arguments: [String] = [], listen: String = "127.0.0.1:0",
                      environment: [String: String] = [:], timeout: Double = 60) async throws -> ServeProcess {
        let binary = try #require(binary, "camerasun binary not found next to the test bundle — run 'swift build' first")
        return try await onOwnThread {
            try ServeProcess(binary: binary, arguments: arguments, listen: listen, environment: environment, timeout: timeout)
        }
    }

    private init(binary: URL, arguments: [String], listen: String, environment: [String: String], timeout: Double) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-serve-\(UUID().uuidString)")
        library = scratch.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let output = scratch.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--listen", listen, "--library", library.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        // The URL's whole line, after any notes (e.g. a camera's nearest format).
        func urlLine(_ printed: String) -> Substring? {
            printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.hasPrefix("viewfinder: http://") }
        }
        var printed = ""
        while process.isRunning, Date() < deadline {
            printed = String(decoding: try Data(contentsOf: output), as: UTF8.self)
            if urlLine(printed) != nil { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let line = urlLine(printed) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServeFailure("camerasun serve \(arguments.joined(separator: " ")) printed no URL within \(timeout) s: \(printed)")
        }
        url = String(line.dropFirst("viewfinder: ".count))
        let authority = url.dropFirst("http://".count).prefix { $0 != "/" }
        guard let port = authority.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            kill(process.processIdentifier, SIGKILL)
            throw ServeFailure("no port in the printed URL \(url)")
        }
        self.port = port
        self.process = Locked(process)
    }

    deinit {
        process.withLock { process in
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Whether the process is still running (it has not exited or been killed).
    var isRunning: Bool { process.withLock { $0.isRunning } }

    /// A new keep-alive connection to the server (connecting to this machine does not wait).
    func connect() throws -> TestConnection {
        TestConnection(try RawHTTPConnection(port: port), server: self)
    }

    /// Whether the process runs (or how it ended) and the end of what it printed: what a failed
    /// request's error carries, since a connection the server closed says nothing of why.
    var diagnostics: String {
        let ending = process.withLock { process in
            process.isRunning ? "running" : "ended (\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus))"
        }
        let printed = (try? String(contentsOf: scratch.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        return "camerasun serve is \(ending); the end of its output:\n" + printed.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    /// Sends Ctrl-C (SIGINT), `times` times 10 ms apart, and returns the exit status, or nil when
    /// the process had not ended within `timeout` seconds (it is then killed).
    func interrupt(times: Int = 1, timeout: Double = 20) async throws -> Int32? {
        await onOwnThread { [self] in
            self.process.withLock { process in
                for time in 0..<times {
                    if time > 0 { usleep(10_000) }
                    kill(process.processIdentifier, SIGINT)
                }
                let deadline = Date(timeIntervalSinceNow: timeout)
                while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
                return process.isRunning ? nil : process.terminationStatus
            }
        }
    }
}

/// A connection to a test's server whose requests each run on a thread of their own; the
/// connection itself is used under its lock, one request at a time.
/// Like a browser's, a connection the server closed while idle (the viewfinder closes one that
/// sends no request within its header timeout, which a test's pause on a loaded machine can pass)
/// is replaced by a new one before the next request. A failed request's error carries the
/// server's `diagnostics`.
final class TestConnection: Sendable {
    private let connection: Locked<RawHTTPConnection>
    private let server: ServeProcess

    init(_ connection: sending RawHTTPConnection, server: ServeProcess) {
        self.connection = Locked(connection)
        self.server = server
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws
        -> RawHTTPConnection.Response {
        try await onConnection { try $0.request(method, path, headers: headers, body: body) }
    }

    /// Runs `body` on the connection on a thread of its own, on a new connection if it starts a
    /// request and the server closed the idle one; its error comes back with the server's diagnostics.
    private func onConnection<T: Sendable>(startsRequest: Bool = true,
                                           _ body: @escaping @Sendable (RawHTTPConnection) throws -> T) async throws -> T {
        do {
            return try await onOwnThread { [self] in
                try self.connection.withLock { connection in
                    if startsRequest, connection.closedWhileIdle() { connection = try RawHTTPConnection(port: server.port) }
                    return try body(connection)
                }
            }
        } catch {
            throw ServeFailure("\(error)\n\(server.diagnostics)")
        }
    }

    /// `method path` with a JSON body (POST) or none (GET); returns the status and the body parsed
    /// as a JSON object.
    func json(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, object: [String: Any]) {
        let response = try await request(method, path, headers: body == nil ? [:] : ["Content-Type": "application/json"],
                                         body: body.map { Data($0.utf8) })
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return (response.status, try #require(object, "\(method) \(path): not a JSON object: \(String(decoding: response.body, as: UTF8.self))"))
    }

    /// Polls `GET /state` every 50 ms until `accept` takes it, for at most `timeout` seconds;
    /// returns the last state either way.
    func state(within timeout: Duration = .seconds(30), until accept: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let state = try await json("GET", "/state").object
            if accept(state) || ContinuousClock.now > deadline { return state }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func openStream(_ path: String) async throws -> RawHTTPConnection.Response {
        try await onConnection { try $0.openStream(path) }
    }

    func nextPart() async throws -> RawHTTPConnection.Part {
        try await onConnection(startsRequest: false) { try $0.nextPart() }
    }
}

/// A serve process that did not start or answer as expected.
struct ServeFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
