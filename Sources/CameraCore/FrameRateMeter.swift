/// Frames per second over the last second of wall-clock time: what a viewfinder or a meter shows
/// as the rate frames really arrive at.
public struct FrameRateMeter: Sendable {
    private var times: [ContinuousClock.Instant] = []
    private var start: ContinuousClock.Instant?

    public init() {}

    /// Counts a frame arriving now; returns the rate over the last second, or 0 until frames have
    /// been counted for a whole second: the first frames of a stream often come in a burst (those
    /// the camera had ready), and their rate says nothing of the stream's.
    public mutating func tick() -> Double {
        tick(at: .now)
    }

    /// Counts a frame arriving at `now`.
    mutating func tick(at now: ContinuousClock.Instant) -> Double {
        let start = self.start ?? now
        self.start = start
        times.append(now)
        times.removeAll { now - $0 > .seconds(1) }
        guard now - start >= .seconds(1), let first = times.first, times.count > 1, now > first else { return 0 }
        return Double(times.count - 1) / (now - first).seconds
    }
}
