import CameraCapture
import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Viewfinder

/// `camerasun bench server`: the viewfinder under viewers — the real viewfinder (session, 3A,
/// preview, JPEG, HTTP server) on a simulated 960×540 camera at 30 fps, as `camerasun serve --width
/// 960 --height 540` runs it, with 20 clients reading `/stream`. Two figures, each beside a peer
/// measured in the same run:
/// - the API's round trip (`POST /api/exposure`, then `GET /state`, on one keep-alive connection)
///   while the 20 streams run, p50 and p95; peer `no-viewers`: the same calls on the same server
///   just before the streams open, so the ratio is what 20 viewers cost the API (1 = nothing);
/// - the slowest client's frame rate; peer `camera`: the frames the camera delivered meanwhile.
///   For this rate `ratio` is ours / peer, so that here too 1 means "as good as the peer" (every
///   client gets every frame).
public enum ServerBenchmark {
    static let cameraSize = PixelSize(width: 960, height: 540)
    static let viewers = 20
    /// The pause between two API calls, like a user's taps and drags rather than a load generator.
    static let callInterval = Duration.milliseconds(100)

    public static func run(calls: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let bench = try await BenchViewfinder.start(on: try BenchViewfinder.bgra8Camera(size: cameraSize), label: "bench server",
                                                    progress: progress)
        let viewfinder = bench.viewfinder
        defer { bench.remove() }
        let port = viewfinder.server.port

        progress.show("bench server: \(calls) API calls with no viewers…")
        let alone = try await apiRoundTrips(port: port, calls: calls)
        progress.show("bench server: \(calls) API calls beside \(viewers) viewers of /stream…")
        let clients = (0..<viewers).map { _ in ViewerClient(port: port) }
        for client in clients { client.start() }
        let allStreaming = try await eventually { clients.allSatisfy(\.isStreaming) }
        guard allStreaming else {
            throw BenchmarkError("not every /stream client had a frame within 30 s — the machine is too busy; run the benchmark again")
        }
        let startFrame = viewfinder.latestFrame?.sequenceNumber ?? 0, started = ContinuousClock.now
        let beside = try await apiRoundTrips(port: port, calls: calls)
        let readings = await onOwnThread { clients.map { $0.finish() } }
        let cameraRate = Double((viewfinder.latestFrame?.sequenceNumber ?? 0) - startFrame) / (ContinuousClock.now - started).seconds
        progress.clear()
        await bench.stop()
        if let failure = readings.compactMap(\.failure).first {
            throw BenchmarkError("a /stream client failed: \(failure) — run the benchmark again")
        }

        let slowest = readings.map(\.framesPerSecond).min() ?? 0
        var results = [(0.5, "p50"), (0.95, "p95")].map { fraction, label in
            let ours = quantile(beside, fraction) ?? 0, peer = quantile(alone, fraction) ?? 0
            return Benchmark(name: "server-api-round-trip-beside-\(viewers)-viewers-\(label)", unit: "ms", ours: ours,
                             peer: "no-viewers", peerValue: peer, ratio: peer / ours)
        }
        results.append(Benchmark(name: "server-stream-slowest-of-\(viewers)-viewers-960x540", unit: "fps", ours: slowest,
                                 peer: "camera", peerValue: cameraRate, ratio: slowest / cameraRate))
        return results
    }

    /// Milliseconds of each request of `calls` rounds of `POST /api/exposure` and `GET /state` on
    /// one keep-alive connection, `callInterval` apart.
    private static func apiRoundTrips(port: UInt16, calls: Int) async throws -> [Double] {
        try await onOwnThread {
            let connection = try RawHTTPConnection(port: port)
            let clock = ContinuousClock()
            var times: [Double] = []
            for index in 0..<calls {
                let bias = Data(#"{"bias":\#(index % 2 == 0 ? 0.5 : 0)}"#.utf8)
                for (method, path, body) in [("POST", "/api/exposure", bias), ("GET", "/state", nil)] {
                    var status = 0
                    times.append(try clock.measure {
                        status = try connection.request(method, path, headers: ["Content-Type": "application/json"], body: body).status
                    }.milliseconds)
                    guard status == 200 else { throw BenchmarkError("\(method) \(path) answered \(status) — run the benchmark again") }
                }
                Thread.sleep(forTimeInterval: callInterval.seconds)   // the pace of a user, not a wait for anything
            }
            return times
        }
    }
}
