import CameraCore

/// The median of `runs` timings of `body`, in milliseconds; `progress` hears each run's number.
func medianMilliseconds(runs: Int, progress: (Int) -> Void = { _ in }, _ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    var times: [Double] = []
    for run in 0..<max(runs, 1) {
        let elapsed = try await clock.measure(body)
        progress(run + 1)
        times.append(elapsed.milliseconds)
    }
    return median(times)
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double { seconds * 1000 }
}
