/// Frames per second over the last second of wall-clock time: what a viewfinder or a meter shows
/// as the rate frames really arrive at.
public struct FrameRateMeter: Sendable {
    private var times: [ContinuousClock.Instant] = []

    public init() {}

    /// Counts a frame arriving now; returns the rate over the last second (0 until two frames).
    public mutating func tick() -> Double {
        let now = ContinuousClock.now
        times.append(now)
        times.removeAll { now - $0 > .seconds(1) }
        guard let first = times.first, times.count > 1, now > first else { return 0 }
        return Double(times.count - 1) / (now - first).seconds
    }
}
