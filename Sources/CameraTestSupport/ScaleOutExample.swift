import CameraCore
import Foundation

/// The README's scale-out server, docs/scale-out-nginx.conf, run as it is written but for its
/// ports and folder: its RTMP and HTTP ports become free ports of 127.0.0.1, /var/www a scratch
/// folder, and nginx runs in the foreground as the current user, stopped by its PID. Cameras push
/// to `url(camera:)`; viewers read `playlistPath(camera:)` over HTTP at `httpPort`.
public final class ScaleOutExample: Sendable {
    public let rtmpPort: UInt16
    public let httpPort: UInt16
    /// What the config's `/var/www` became: HLS playlists and segments are in its `hls` folder.
    public let root: URL
    private let process: Locked<SpawnedProcess?>

    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/scale-out-nginx.conf")

    /// Starts it with its files in `folder`; returns once the RTMP port accepts connections.
    public init(in folder: URL) async throws {
        (rtmpPort, httpPort) = (try LoopbackSocket.freePort(), try LoopbackSocket.freePort())
        root = folder.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("hls"), withIntermediateDirectories: true)
        let written = try String(contentsOf: Self.config, encoding: .utf8)
        let config = written
            .replacingOccurrences(of: "listen 1935;", with: "listen 127.0.0.1:\(rtmpPort);")
            .replacingOccurrences(of: "listen 8080;", with: "listen 127.0.0.1:\(httpPort);")
            .replacingOccurrences(of: "/var/www", with: root.path)
        guard config.contains(String(rtmpPort)), config.contains(String(httpPort)), !config.contains("/var/www") else {
            throw NginxRTMPServer.Failure(description: "\(Self.config.path) no longer listens on 1935 and 8080 under /var/www — update ScaleOutExample")
        }
        try config.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let errorLog = folder.appendingPathComponent("error.log")
        process = Locked(try await NginxRTMPServer.run(["-p", folder.path, "-c", "nginx.conf", "-e", errorLog.path,
                                                         "-g", "daemon off; master_process off; pid nginx.pid;"],
                                                        listeningOn: rtmpPort, errorLog: errorLog))
    }

    /// `rtmp://127.0.0.1:PORT/live/CAMERA`, the one command's `--to`.
    public func url(camera: String) -> String {
        "rtmp://127.0.0.1:\(rtmpPort)/live/\(camera)"
    }

    /// `/hls/CAMERA.m3u8`, the viewers' playlist.
    public func playlistPath(camera: String) -> String {
        "/hls/\(camera).m3u8"
    }

    /// Stops nginx by its PID (SIGTERM, SIGKILL after 10 s).
    public func stop() async throws {
        try await process.withLock { $0.take() }?.end(with: SIGTERM)
    }
}
