import CameraBenchmarks
import CameraSunCLI
import CameraSystem
import Foundation

/// `camerasun-bench SUITE [--frames N] [--json]`, which `camerasun bench …` runs: performance
/// figures, each beside a peer measured in the same run where one exists (see BENCHMARKS.md).
enum BenchSuites {
    static let suites = "sim, metering, photo, pipeline, server, tonemap, fusion, filters, record, stream, viewfinder, startup"

    static func run(_ arguments: [String], terminal: Terminal) async throws {
        var rest = ArgumentList(arguments, command: "bench")
        let json = rest.flag("json")
        let frames = try rest.integer("frames", in: 1...100_000)
        // The suite is the first argument left once the flags are read, so `bench --json sim` works too.
        let suite = try rest.positional("a suite (\(suites))")
        try rest.finish()
        let benchmarks: [Benchmark]
        let progress = BenchmarkProgress(terminal.progress(enabled: !json))
        do {
            switch suite {
            case "sim": benchmarks = try await SimulatorBenchmark.run(frames: frames ?? 60, progress: progress)
            case "metering": benchmarks = try await MeteringBenchmark.run(runs: frames ?? 60, progress: progress)
            case "photo": benchmarks = try await PhotoBenchmark.run(shots: frames ?? PhotoBenchmark.defaultShots, progress: progress)
            case "pipeline": benchmarks = try await PipelineBenchmark.run(frames: frames ?? 60, progress: progress)
            case "server": benchmarks = try await ServerBenchmark.run(calls: frames ?? 30, progress: progress)
            case "tonemap": benchmarks = try await TonemapBenchmark.run(runs: frames ?? 30, progress: progress)
            case "fusion": benchmarks = try await FusionBenchmark.run(runs: frames ?? 10, progress: progress)
            case "filters": benchmarks = try await FilterBenchmark.run(runs: frames ?? 30, progress: progress)
            // --frames counts the live take's seconds here.
            case "record": benchmarks = try await RecordBenchmark.run(seconds: frames ?? 60, progress: progress)
            // … and the seconds each push is measured for here.
            case "stream": benchmarks = try await StreamBenchmark.run(seconds: frames ?? 30, progress: progress)
            // … and the seconds the viewer watches here.
            case "viewfinder": benchmarks = try await ViewfinderBenchmark.run(seconds: frames ?? 60, progress: progress)
            // … and the starts of each command here.
            case "startup": benchmarks = try await StartupBenchmark.run(camerasun: try camerasun(), runs: frames ?? 3, progress: progress)
            default: throw CLIError.usage("unknown benchmark suite '\(suite)' — available: \(suites)")
            }
        } catch let error as BenchmarkError {
            throw CLIError.runtime(error.message)
        }
        if json {
            try terminal.json(BenchmarkReport(benchmarks: benchmarks))
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

    /// The `camerasun` program beside this one, which `bench startup` times.
    private static func camerasun() throws -> URL {
        let path = try ProcessImage.sibling("camerasun")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CLIError.runtime("\(path) is missing: bench startup times the camerasun beside camerasun-bench — build it with `make build`")
        }
        return URL(fileURLWithPath: path)
    }
}
