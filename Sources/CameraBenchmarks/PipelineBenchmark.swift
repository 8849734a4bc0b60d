import CameraCapture
import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Viewfinder

/// `camerasun bench pipeline`: how long a frame takes from the camera to a viewer — captured (the
/// simulated camera hands it to the session) until its MJPEG part has been read whole from
/// `/stream` by a client on this machine — through the real viewfinder (session, analysis and
/// 3A, preview scaling, JPEG, HTTP server) at a 960×540 preview of `make run`'s camera: raw
/// 1280×720 at 30 fps, developed, denoised and tone-mapped locally (`BenchViewfinder.defaultCamera`).
/// Peer, in the same run: a bare libjpeg-turbo encode (`tjCompress2`) of the same preview frames,
/// the one step of the path a C server could not skip.
public enum PipelineBenchmark {
    static let cameraSize = PixelSize(width: 1280, height: 720)
    /// Parts read before timing starts (the camera and the encoder settle).
    static let warmUpParts = 30

    public static func run(frames: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let camera = TimedCaptureDevice(try BenchViewfinder.defaultCamera(size: cameraSize))
        let bench = try await BenchViewfinder.start(on: camera, label: "bench pipeline", progress: progress)
        let viewfinder = bench.viewfinder
        defer { bench.remove() }

        progress.show("bench pipeline: reading \(frames) frames from /stream…")
        let port = viewfinder.server.port
        let arrivals = try await onOwnThread { try readStream(port: port, parts: warmUpParts + frames) }
        let latencies = arrivals.dropFirst(warmUpParts).compactMap { arrival in
            camera.captureTime(of: arrival.frame).map { (arrival.time - $0).milliseconds }
        }
        progress.show("bench pipeline: encoding \(frames) preview frames with bare libjpeg-turbo…")
        let encodes = try await bareEncodes(of: viewfinder, count: frames, quality: bench.configuration.previewQuality)
        progress.clear()
        await bench.stop()
        guard latencies.count * 2 >= frames else {
            throw BenchmarkError("only \(latencies.count) of \(frames) parts could be matched to their capture time — "
                + "the machine is too busy; run the benchmark again")
        }
        return [(0.5, "p50"), (0.95, "p95")].map { fraction, label in
            let ours = quantile(latencies, fraction) ?? 0, peer = quantile(encodes, fraction) ?? 0
            return Benchmark(name: "pipeline-capture-to-socket-960x540-\(label)", unit: "ms", ours: ours,
                             peer: "libjpeg-turbo", peerValue: peer, ratio: peer / ours)
        }
    }

    /// When each of `parts` parts of `/stream` was read whole, and the frame it shows.
    private static func readStream(port: UInt16, parts: Int) throws -> [(frame: UInt64, time: ContinuousClock.Instant)] {
        let connection = try RawHTTPConnection(port: port)
        let head = try connection.openStream("/stream")
        guard head.status == 200 else { throw BenchmarkError("GET /stream answered \(head.status) — run the benchmark again") }
        return try (0..<parts).map { _ in
            let part = try connection.nextPart()
            let time = ContinuousClock.now
            guard let frame = part.headers["x-frame-number"].flatMap(UInt64.init) else {
                throw BenchmarkError("a /stream part has no X-Frame-Number header (\(part.headers)) — rebuild camerasun")
            }
            return (frame, time)
        }
    }

    /// Milliseconds of one bare `tjCompress2` of each of the next `count` preview frames.
    private static func bareEncodes(of viewfinder: CameraViewfinder, count: Int, quality: Int) async throws -> [Double] {
        let encoder = try JPEGEncoder()
        let clock = ContinuousClock()
        var times: [Double] = []
        var last: UInt64?
        while times.count < count {
            guard let frame = viewfinder.latestFrame, frame.sequenceNumber != last else {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            last = frame.sequenceNumber
            times.append(try clock.measure { _ = try encoder.bareTurboJPEGEncode(frame.image, quality: quality) }.milliseconds)
        }
        return times
    }
}
