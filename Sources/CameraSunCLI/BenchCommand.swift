import CameraCapture
import CameraCore
import CameraSimulated
import Foundation

/// `camerasun bench …`: performance figures, each beside a peer measured in the same run where
/// one exists (see BENCHMARKS.md).
enum BenchCommand {
    struct Report: Encodable {
        let benchmarks: [Benchmark]
    }

    /// One figure. `ratio` = peerValue / ours for times (above 1: CameraSun is faster).
    struct Benchmark: Encodable {
        let name: String
        let unit: String
        let ours: Double
        let peer: String?
        let peerValue: Double?
        let ratio: Double?

        enum CodingKeys: String, CodingKey {
            case name, unit, ours, peer, peerValue, ratio
        }

        // Encodes absent peers as explicit nulls, as CLI.md's shape has every key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(unit, forKey: .unit)
            try container.encode(ours, forKey: .ours)
            try container.encode(peer, forKey: .peer)
            try container.encode(peerValue, forKey: .peerValue)
            try container.encode(ratio, forKey: .ratio)
        }
    }

    static func run(_ arguments: [String], terminal: Terminal) async throws {
        var rest = ArgumentList(arguments, command: "bench")
        let json = rest.flag("json")
        let frames = try rest.positiveInt("frames") ?? 60
        // The suite is the first argument left once the flags are read, so `bench --json sim` works too.
        let suite = try rest.positional("a suite (sim)")
        try rest.finish()
        let benchmarks: [Benchmark]
        switch suite {
        case "sim": benchmarks = try await simulator(frames: frames, terminal: terminal, showProgress: !json && terminal.stdoutIsTTY)
        default: throw CLIError.usage("unknown benchmark suite '\(suite)' — available: sim")
        }
        if json {
            try terminal.json(Report(benchmarks: benchmarks))
            return
        }
        for benchmark in benchmarks {
            var line = "\(benchmark.name): \(String(format: "%.2f", benchmark.ours)) \(benchmark.unit)"
            if benchmark.unit == "ms/frame" { line += String(format: " (%.1f fps)", 1000 / benchmark.ours) }
            if let peer = benchmark.peer, let value = benchmark.peerValue, let ratio = benchmark.ratio {
                line += String(format: "; %@ %.2f, ratio %.2f", peer, value, ratio)
            }
            terminal.print(line)
        }
    }

    /// Median render time of 1080p bgra8 and nv12 frames of backlit-portrait, single-threaded, after the scene is
    /// painted and the lens image cached. No peer renders the same physics, so `peer` is null.
    private static func simulator(frames: Int, terminal: Terminal, showProgress: Bool) async throws -> [Benchmark] {
        var results: [Benchmark] = []
        for format in [PixelFormat.bgra8, .nv12(.video)] {
            let camera = try SimulatedCamera(
                scene: .backlitPortrait,
                format: DeviceFormat(size: PixelSize(width: 1920, height: 1080), pixelFormat: format,
                                     frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)]))
            try camera.requestExposure(duration: MediaTime(value: 1, timescale: 200))
            _ = try await camera.captureFrame()
            let clock = ContinuousClock()
            var times: [Duration] = []
            for index in 0..<frames {
                times.append(try await clock.measure { _ = try await camera.captureFrame() })
                if showProgress { terminal.status("bench sim \(format): frame \(index + 1)/\(frames)") }
            }
            if showProgress { terminal.status("") }
            let median = times.sorted()[times.count / 2]
            let milliseconds = Double(median.components.attoseconds) * 1e-15 + Double(median.components.seconds) * 1000
            results.append(Benchmark(name: "sim-render-1080p-\(format.name)", unit: "ms/frame", ours: milliseconds,
                                     peer: nil, peerValue: nil, ratio: nil))
        }
        return results
    }
}
