import CameraCore

/// The bits a second a connection sent over the last second, readable at any moment: from the
/// bytes the socket had taken after each packet, so that when the server stops taking the stream
/// the figure falls to what is really sent instead of staying at the last second measured.
struct LiveStreamRate {
    static let window = Duration.seconds(1)
    /// Below this much measured time the figure would be noise: 0 is reported.
    static let shortest = Duration.milliseconds(250)

    /// Bytes sent by each moment, oldest first: the newest at or before a window's start, then the rest.
    private var samples: [(time: ContinuousClock.Instant, bytes: Int64)] = []

    /// The connection had sent `bytes` in all at `time`.
    mutating func record(bytes: Int64, at time: ContinuousClock.Instant) {
        samples.append((time, bytes))
        if let anchor = samples.lastIndex(where: { time - $0.time >= Self.window }), anchor > 0 { samples.removeFirst(anchor) }
    }

    /// No connection: nothing is sent.
    mutating func reset() {
        samples.removeAll()
    }

    /// Bits a second over the window ending `now` (or since the first sample, when that is later).
    func bitsPerSecond(at now: ContinuousClock.Instant) -> Int {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let start = now - Self.window
        let base = samples.last { $0.time <= start } ?? first
        let span = now - max(base.time, start)
        guard span >= Self.shortest else { return 0 }
        return Int(Double(last.bytes - base.bytes) * 8 / span.seconds)
    }
}
