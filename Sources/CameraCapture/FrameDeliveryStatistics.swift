/// What an output's consumer got: frames delivered, frames dropped by reason, and the intervals
/// between delivered frames — the seed's "interval above 1/fps" check, made exact by using
/// presentation times instead of callback times.
public struct FrameDeliveryStatistics: Sendable {
    public private(set) var framesDelivered = 0
    public private(set) var framesDropped: [FrameDropReason: Int] = [:]
    /// Intervals measured between consecutive delivered frames of one stream.
    public private(set) var intervalCount = 0
    /// Mean and longest interval between delivered frames, in seconds (0 before two frames).
    public private(set) var meanInterval = 0.0
    public private(set) var maximumInterval = 0.0
    /// Intervals longer than `longIntervalFactor` frame durations: each means the consumer missed
    /// at least one frame, whatever the reason.
    public private(set) var longIntervals = 0

    /// An interval longer than this many nominal frame durations counts as a long interval.
    public static let longIntervalFactor = 1.5

    /// The last delivered frame's stream and presentation time in seconds.
    private var last: (stream: Int, time: Double)?

    /// Frames dropped for `reason`.
    public func dropped(_ reason: FrameDropReason) -> Int { framesDropped[reason, default: 0] }

    /// Frames dropped for any reason.
    public var totalDropped: Int { framesDropped.values.reduce(0, +) }

    mutating func recordDrop(_ reason: FrameDropReason) {
        framesDropped[reason, default: 0] += 1
    }

    mutating func recordDelivery(_ frame: CapturedFrame) {
        framesDelivered += 1
        let time = frame.presentationTime.seconds
        defer { last = (frame.streamIndex, time) }
        // A new stream starts a new timeline: its first interval is not measured.
        guard let last, last.stream == frame.streamIndex, time > last.time else { return }
        let interval = time - last.time
        intervalCount += 1
        meanInterval += (interval - meanInterval) / Double(intervalCount)
        maximumInterval = max(maximumInterval, interval)
        if interval > frame.frameDuration.seconds * Self.longIntervalFactor { longIntervals += 1 }
    }
}
