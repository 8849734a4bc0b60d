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
        let frames = try rest.positiveInt("frames")
        // The suite is the first argument left once the flags are read, so `bench --json sim` works too.
        let suite = try rest.positional("a suite (sim, metering, photo, pipeline or server)")
        try rest.finish()
        let benchmarks: [Benchmark]
        let progress = BenchProgress(terminal: terminal, enabled: !json && terminal.stdoutIsTTY)
        switch suite {
        case "sim": benchmarks = try await SimulatorBenchmark.run(frames: frames ?? 60, progress: progress)
        case "metering": benchmarks = try await MeteringBenchmark.run(runs: frames ?? 60, progress: progress)
        case "photo": benchmarks = try await PhotoBenchmark.run(shots: frames ?? PhotoBenchmark.defaultShots, progress: progress)
        case "pipeline": benchmarks = try await PipelineBenchmark.run(frames: frames ?? 60, progress: progress)
        case "server": benchmarks = try await ServerBenchmark.run(calls: frames ?? 30, progress: progress)
        default: throw CLIError.usage("unknown benchmark suite '\(suite)' — available: sim, metering, photo, pipeline, server")
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
}

/// A progress line for long benchmarks, shown only on a terminal.
struct BenchProgress {
    let terminal: Terminal
    let enabled: Bool

    func show(_ line: String) {
        if enabled { terminal.status(line) }
    }

    func clear() {
        if enabled { terminal.status("") }
    }
}

/// The median of `runs` timings of `body`, in milliseconds; `progress` hears each run's number.
func medianMilliseconds(runs: Int, progress: (Int) -> Void = { _ in }, _ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    var times: [Double] = []
    for run in 0..<max(runs, 1) {
        let elapsed = try await clock.measure(body)
        progress(run + 1)
        times.append(elapsed.seconds * 1000)
    }
    return times.sorted()[times.count / 2]
}
