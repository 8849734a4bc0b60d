/// What `camerasun bench --json` prints: the suite's figures, in order.
public struct BenchmarkReport: Encodable, Sendable {
    public let benchmarks: [Benchmark]

    public init(benchmarks: [Benchmark]) {
        self.benchmarks = benchmarks
    }
}
