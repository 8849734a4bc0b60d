import CameraCore
import CameraTestSupport
import Foundation

/// ffmpeg listening for one RTMP publisher on 127.0.0.1 (`-listen 1`), copying what it receives
/// into an FLV file: a real RTMP peer for the live stream's tests. Killing it drops the connection
/// as a crashed server would.
final class RTMPListener: Sendable {
    let port: Int
    let path: String
    private let process: Process

    /// Starts ffmpeg on `port` writing to `path`, and returns once it listens.
    init(port: Int, path: String) async throws {
        (self.port, self.path) = (port, path)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-listen", "1", "-f", "flv", "-i", "rtmp://127.0.0.1:\(port)/live/test", "-c", "copy", path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let listening = try await eventually { Self.isListening(port) || !self.process.isRunning }
        guard listening, process.isRunning else { throw RTMPListenerFailure(description: "ffmpeg did not listen on port \(port)") }
    }

    var url: String { "rtmp://127.0.0.1:\(port)/live/test" }

    /// Waits for ffmpeg to finish its file after the publisher ended the stream.
    func waitUntilDone() async {
        await onOwnThread { [process] in process.waitUntilExit() }
    }

    /// Kills ffmpeg at once, as a crash would.
    func kill() async {
        Glibc.kill(process.processIdentifier, SIGKILL)
        await waitUntilDone()
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() -> Int {
        while true {
            let port = Int.random(in: 20_000...60_000)
            if !isListening(port) { return port }
        }
    }

    /// Whether a socket listens on `port` (/proc/net/tcp: local address, state 0A).
    static func isListening(_ port: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let suffix = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(suffix) && fields[3] == "0A"
        }
    }
}

struct RTMPListenerFailure: Error, CustomStringConvertible {
    let description: String
}
