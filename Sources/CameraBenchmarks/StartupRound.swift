import CameraMovie
import CameraTestSupport
import Foundation

/// One round of `bench startup`: each command of `camerasun` and its `ffmpeg` peer launched as a
/// process in turn, timed from its launch until its first frame is where a user waits for it,
/// then ended (SIGTERM, as a user's Ctrl-C would).
struct StartupRound {
    let camerasun: String
    let folder: URL
    let server: NginxRTMPServer

    static let ffmpeg = "/usr/bin/ffmpeg"
    static let cameraSize = "1280x720", frameRate = 30
    /// The peers' input: a test pattern and a tone at 30 frames a second in real time, as a camera and a microphone deliver them.
    static let testPattern = ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=\(cameraSize):rate=\(frameRate)",
                              "-re", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000"]
    /// The encoder settings of `camerasun`'s takes and streams.
    static let h264 = ["-c:v", "libx264", "-preset", H264EncoderChoice.softwarePreset, "-g", "\(frameRate)", "-bf", "0",
                       "-pix_fmt", "yuv420p", "-c:a", "aac"]

    /// The figures in the order they are measured, each a name and its measurement in seconds.
    var measurements: [(String, () async throws -> Double)] {
        [("serve", serve), ("record", record), ("ffmpeg record", ffmpegRecord), ("stream", stream), ("ffmpeg stream", ffmpegStream),
         ("photo", photo), ("ffmpeg photo", ffmpegPhoto)]
    }

    /// `camerasun serve` → the first JPEG of `/stream` read whole.
    private func serve() async throws -> Double {
        let port = try LoopbackSocket.freePort()
        let arguments = ["serve", "--listen", "127.0.0.1:\(port)", "--library", library("serve")] + StartupBenchmark.camera
        return try await firstFrame("camerasun serve", camerasun, arguments) {
            guard let connection = try? RawHTTPConnection(port: port, timeout: StartupBenchmark.timeout.seconds),
                  (try? connection.openStream("/stream"))?.status == 200 else { return false }
            _ = try connection.nextPart()
            return true
        }
    }

    /// `camerasun record` → the take's first fragment whole in its file.
    private func record() async throws -> Double {
        let library = URL(fileURLWithPath: library("record"))
        return try await firstFrame("camerasun record", camerasun, ["record", "--library", library.path] + StartupBenchmark.camera) {
            let files = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            return files.first { $0.path.hasSuffix(".mp4.partial") }.map { MediaFileProgress.hasWholeFragment($0.path) } ?? false
        }
    }

    private func ffmpegRecord() async throws -> Double {
        let path = folder.appendingPathComponent("ffmpeg.mp4").path
        let arguments = Self.testPattern + Self.h264 + ["-crf", "\(H264EncoderChoice.softwareRateFactor)",
                                                        "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-y", path]
        return try await firstFrame("ffmpeg → fragmented MP4", Self.ffmpeg, arguments) { MediaFileProgress.hasWholeFragment(path) }
    }

    /// `camerasun stream` → the first picture whole in nginx's recording.
    private func stream() async throws -> Double {
        let key = "camerasun-\(folder.lastPathComponent)"
        return try await firstFrame("camerasun stream", camerasun, ["stream", "--to", server.url(key: key)] + StartupBenchmark.camera) {
            try hasVideoAtServer(key: key)
        }
    }

    private func ffmpegStream() async throws -> Double {
        let key = "ffmpeg-\(folder.lastPathComponent)"
        let rate = "2500k"
        let arguments = Self.testPattern + Self.h264 + ["-tune", "zerolatency", "-b:v", rate, "-maxrate", rate, "-bufsize", rate,
                                                        "-f", "flv", server.url(key: key)]
        return try await firstFrame("ffmpeg → nginx-rtmp", Self.ffmpeg, arguments) { try hasVideoAtServer(key: key) }
    }

    /// `camerasun photo` at 1920×1080 → its exit, the photo saved in the library.
    private func photo() async throws -> Double {
        let arguments = ["photo", "--library", library("photo"), "--width", "1920", "--height", "1080"] + StartupBenchmark.camera
        return try await secondsToExit("camerasun photo", camerasun, arguments)
    }

    private func ffmpegPhoto() async throws -> Double {
        let arguments = ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=\(Self.frameRate)", "-frames:v", "1",
                         "-y", folder.appendingPathComponent("ffmpeg.jpg").path]
        return try await secondsToExit("ffmpeg → JPEG", Self.ffmpeg, arguments)
    }

    /// Seconds from launching `executable arguments` until `arrived` holds; the process is ended then.
    private func firstFrame(_ name: String, _ executable: String, _ arguments: [String],
                            until arrived: @escaping @Sendable () throws -> Bool) async throws -> Double {
        let launch = try TimedLaunch(name, executable, arguments, log: log(name))
        do {
            let seconds = try await launch.seconds(until: arrived)
            try await launch.process.end(with: SIGTERM)
            return seconds
        } catch {
            try? await launch.process.end(with: SIGKILL)
            throw error
        }
    }

    /// Seconds from launching `executable arguments` until it exits with status 0.
    private func secondsToExit(_ name: String, _ executable: String, _ arguments: [String]) async throws -> Double {
        let launch = try TimedLaunch(name, executable, arguments, log: log(name))
        do {
            return try await launch.secondsToExit()
        } catch {
            try? await launch.process.end(with: SIGKILL)
            throw error
        }
    }

    private func log(_ name: String) -> URL {
        folder.appendingPathComponent("\(name).log")
    }

    private func library(_ command: String) -> String {
        folder.appendingPathComponent("library-\(command)").path
    }

    /// Whether nginx's recording of the stream `key` holds a whole picture.
    private func hasVideoAtServer(key: String) throws -> Bool {
        try server.recordings().first { $0.lastPathComponent.hasPrefix("\(key)-") }.map { MediaFileProgress.hasVideoFrame($0.path) } ?? false
    }
}
