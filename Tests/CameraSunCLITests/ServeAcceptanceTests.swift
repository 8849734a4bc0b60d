@testable import CameraSunCLI
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// Issue 7's acceptance against the real server: the release `camerasun serve` on the simulated
/// camera at 30 fps with a 960×540 preview. It needs `CAMERASUN_RELEASE_BINARY` (set by `make
/// test` to its optimized build's binary), since a debug build renders about one 960×540 frame a
/// second.
@Suite("Viewfinder acceptance", .serialized,
       .enabled(if: ServeProcess.releaseBinary != nil, "needs CAMERASUN_RELEASE_BINARY (make test sets it)"))
struct ServeAcceptanceTests {
    /// The repository root, where `make deps` puts the browser tests' venv.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let streamClients = 20
    static let browserTimeout = 300.0

    @Test("The browser test passes against the real server in headless Chromium, saving screenshots")
    func browser() async throws {
        let python = Self.root.appendingPathComponent(".venv-browser/bin/python")
        for tool in [python.path, "/usr/bin/chromium", "/usr/bin/chromedriver"] {
            try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is missing — run make deps")
        }
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary)
        let artifacts = Self.root.appendingPathComponent(".build/artifacts/browser")
        let run = try await onOwnThread { try Self.runBrowserTest(python: python, url: server.url, artifacts: artifacts) }
        print(run.transcript)
        #expect(run.finished, "viewfinder_test.py did not finish within \(Self.browserTimeout) s")
        #expect(run.status == 0, "viewfinder_test.py failed:\n\(run.transcript)")
        #expect(run.transcript.contains("14 passed, 0 failed"), "\(run.transcript)")
        for screenshot in ["01-loaded.png", "02-ev-plus-2.png", "03-tap.png", "04-locked.png", "05-photo.png", "06-overlays.png", "11-recording.png",
                           "12-library-movie.png"] {
            #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent(screenshot).path), "\(screenshot) not saved")
        }
        #expect(try await server.interrupt() == 0)
    }

    @Test("With two cameras the page keeps the picture-in-picture clear at four window sizes and mirrors the front camera's outline")
    func browserWithTwoCameras() async throws {
        let python = Self.root.appendingPathComponent(".venv-browser/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "\(python.path) is missing — run make deps")
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, ["--source2", "sim:backlit-portrait"])
        let artifacts = Self.root.appendingPathComponent(".build/artifacts/browser")
        let run = try await onOwnThread {
            try Self.runBrowserTest(python: python, url: server.url, artifacts: artifacts, options: ["--only", "two cameras"])
        }
        print(run.transcript)
        #expect(run.finished && run.status == 0, "viewfinder_test.py failed:\n\(run.transcript)")
        for check in ["two cameras: the layout at four window sizes", "two cameras: the mirrored front camera's subject outline"] {
            #expect(run.transcript.contains("ok   \(check)"), "\(check) did not pass:\n\(run.transcript)")
        }
        #expect(try await server.interrupt() == 0)
    }

    /// 20 viewers of the 960×540 stream (the camera runs at the preview's size): once each has a
    /// frame, controls and `/state` are answered while they stream, and each viewer then receives a
    /// frame newer than the `/state` that shows the last control applied — whole 960×540 JPEGs
    /// throughout. The frame rate each
    /// viewer gets and the API's latency under this load are a benchmark: `camerasun bench server`.
    @Test("20 /stream clients keep getting 960×540 JPEGs while /api calls answer")
    func twentyStreams() async throws {
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, ["--width", "960", "--height", "540"])
        let connection = try server.connect()
        let port = server.port
        let clients = (0..<Self.streamClients).map { _ in StreamClient(port: port) }
        for client in clients { client.start() }
        #expect(try await eventually { clients.allSatisfy(\.hasFirstPart) },
                "\(clients.filter(\.hasFirstPart).count) of \(Self.streamClients) clients got a first frame")
        for index in 0..<16 {
            let set = try await connection.json("POST", "/api/exposure", #"{"bias":\#(index % 2 == 0 ? 0 : 0.5)}"#)
            #expect(set.status == 200 && set.object["evRange"] != nil, "a control answers the new /state")
            #expect(try await connection.json("GET", "/state").status == 200)
        }
        let biased = try await connection.state { abs((jsonNumber($0["evBias"]) ?? 0) - 0.5) < 0.01 }
        #expect(abs((jsonNumber(biased["evBias"]) ?? 0) - 0.5) < 0.01, "evBias \(biased["evBias"] ?? "none") did not reach 0.5")
        let lastFrame = UInt64(jsonNumber(biased["frame"]) ?? 0)
        var results: [StreamClient.Result] = []
        for client in clients { results.append(await onOwnThread { client.finish(after: lastFrame) }) }
        for (index, result) in results.enumerated() {
            #expect(result.error == nil, "client \(index): \(result.error ?? "")")
            #expect(result.frames.count >= 2 && (result.frames.last ?? 0) > lastFrame,
                    "client \(index) got frames \(result.frames.prefix(3))…\(result.frames.suffix(3)), the last /state was at \(lastFrame)")
            #expect(result.frames == result.frames.sorted(), "client \(index) got frames out of order")
            #expect(result.sizes.allSatisfy { $0 == "960x540" }, "client \(index) got frames of \(Set(result.sizes))")
        }
        #expect(try await server.interrupt() == 0)
    }
}

extension ServeAcceptanceTests {
    /// How one run of the browser test went.
    struct BrowserRun {
        let finished: Bool
        let status: Int32
        let transcript: String
    }

    /// Runs `viewfinder_test.py` against `url` with `options` (at most `browserTimeout` seconds; each
    /// of its checks waits 15 s at most and the whole run takes about 30 s).
    static func runBrowserTest(python: URL, url: String, artifacts: URL, options: [String] = []) throws -> BrowserRun {
        let process = Process()
        process.executableURL = python
        process.arguments = ["Tests/Browser/viewfinder_test.py", "--artifacts", artifacts.path] + options + [url]
        process.currentDirectoryURL = root
        let output = artifacts.appendingPathComponent("transcript.txt")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        let deadline = Date(timeIntervalSinceNow: browserTimeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let finished = !process.isRunning
        if !finished { process.terminate() }
        process.waitUntilExit()
        return BrowserRun(finished: finished, status: process.terminationStatus,
                          transcript: String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }
}

/// One `/stream` viewer on a thread of its own: reads whole parts, noting each one's frame number
/// and JPEG size, until `finish(after:)` names a frame it has read past.
final class StreamClient: Sendable {
    struct Result: Sendable {
        var frames: [UInt64] = []
        var sizes: [String] = []
        var error: String?
    }

    private let port: UInt16
    private let result = Locked(Result())
    /// Set by `finish(after:)`: the client stops after a part newer than this frame.
    private let lastFrame = Locked<UInt64?>(nil)
    /// Whether the client's thread has ended.
    private let done = Condition(false)

    init(port: UInt16) {
        self.port = port
    }

    /// Whether the first part has arrived whole.
    var hasFirstPart: Bool { result.withLock { !$0.frames.isEmpty } }

    func start() {
        Thread { [self] in
            defer { done.withLock { $0 = true } }
            do {
                let connection = try RawHTTPConnection(port: port)
                _ = try connection.openStream("/stream")
                while true {
                    let part = try connection.nextPart()
                    guard let frame = part.headers["x-frame-number"].flatMap(UInt64.init) else {
                        throw ServeFailure("a /stream part without X-Frame-Number: \(part.headers)")
                    }
                    result.withLock { result in
                        result.frames.append(frame)
                        result.sizes.append(Self.jpegSize(part.body))
                    }
                    if let last = lastFrame.withLock({ $0 }), frame > last { return }
                }
            } catch {
                result.withLock { $0.error = "\(error)" }
            }
        }.start()
    }

    /// Lets the client stop once it has read a part newer than `frame`, waits for its thread and
    /// returns what it read (blocking: call it off the pool).
    func finish(after frame: UInt64) -> Result {
        lastFrame.withLock { $0 = frame }
        done.wait { $0 ? .done(()) : .waitForChange(until: nil) }
        return result.withLock { $0 }
    }

    /// "WIDTHxHEIGHT" from a JPEG's start-of-frame segment, or "not a JPEG".
    static func jpegSize(_ jpeg: Data) -> String {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1], length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                return "\(Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]))x\(Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))"
            }
            index += 2 + length
        }
        return "not a JPEG"
    }
}
