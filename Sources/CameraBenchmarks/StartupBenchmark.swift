import CameraCore
import CameraMovie
import CameraTestSupport
import Foundation

/// `camerasun bench startup`: how long a user waits after typing a command, the real `camerasun`
/// run as a process on the simulated backlit-portrait camera (the default source of a machine
/// without one), each figure the median of `runs` starts:
///
/// - `serve` → the first JPEG of `/stream` read whole by a viewer (no peer);
/// - `record` → the take's first fragment (a second of it) whole in its file, beside `ffmpeg`
///   writing its test pattern (`testsrc2`, 1280×720 in real time) with the same encoder settings
///   to a fragmented MP4;
/// - `stream` → the first picture whole in nginx-rtmp's recording of the stream (nginx started on
///   loopback by the benchmark), beside `ffmpeg` pushing its test pattern the same way;
/// - `photo` at 1920×1080 → the command's exit, the photo saved, beside `ffmpeg` writing one
///   1080p JPEG of its test pattern.
public enum StartupBenchmark {
    static let camera = ["--source", "sim:backlit-portrait"]
    /// The longest wait for a first frame: a start that takes longer has failed.
    static let timeout = Duration.seconds(60)

    public static func run(camerasun: URL, runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        try await withScratchDirectory { folder in
            let server = try await NginxRTMPServer.start(in: folder.appendingPathComponent("nginx"))
            var times: [String: [Double]] = [:]
            do {
                for run in 1...runs {
                    let round = StartupRound(camerasun: camerasun.path, folder: folder.appendingPathComponent("\(run)"), server: server)
                    try FileManager.default.createDirectory(at: round.folder, withIntermediateDirectories: true)
                    for (figure, measure) in round.measurements {
                        progress.show("bench startup: \(figure), start \(run) of \(runs)…")
                        times[figure, default: []].append(try await measure())
                    }
                }
            } catch {
                try? await server.stop()
                throw error
            }
            try await server.stop()
            progress.clear()
            func figure(_ name: String, _ ours: String, peer: (name: String, times: String)? = nil) -> Benchmark {
                let value = median(times[ours] ?? [])
                guard let peer else { return Benchmark(name: name, unit: "s", ours: value) }
                let peerValue = median(times[peer.times] ?? [])
                return Benchmark(name: name, unit: "s", ours: value, peer: peer.name, peerValue: peerValue, ratio: peerValue / value)
            }
            return [
                figure("startup-serve-first-mjpeg", "serve"),
                figure("startup-record-first-fragment", "record", peer: ("ffmpeg -re testsrc2 → fragmented MP4", "ffmpeg record")),
                figure("startup-stream-first-video-at-nginx", "stream", peer: ("ffmpeg -re testsrc2 → nginx-rtmp", "ffmpeg stream")),
                figure("startup-photo-1080p-saved", "photo", peer: ("ffmpeg testsrc2 → one JPEG", "ffmpeg photo")),
            ]
        }
    }
}
