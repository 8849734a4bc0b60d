import CameraCore

/// Splits a total exposure into sensor settings: exposure duration first (up to `maximumDuration`,
/// in whole flicker periods under mains light), then analogue gain, then digital gain — the order
/// that adds the least noise.
public struct ExposureProgram: Sendable, Hashable {
    /// The shortest and longest exposure durations allowed, in seconds.
    public var durationRange: ClosedRange<Double>
    public var analogueGainRange: ClosedRange<Double>
    public var maximumDigitalGain: Double
    /// The flicker period to round durations to (1/100 s on 50 Hz mains), or nil.
    public var flickerPeriod: Double?

    public init(durationRange: ClosedRange<Double>, analogueGainRange: ClosedRange<Double>, maximumDigitalGain: Double = 1,
                flickerPeriod: Double? = nil) {
        self.durationRange = durationRange
        self.analogueGainRange = analogueGainRange
        self.maximumDigitalGain = maximumDigitalGain
        self.flickerPeriod = flickerPeriod
    }

    /// Sensor settings for one exposure.
    public struct Settings: Sendable, Hashable {
        public var duration: Double
        public var analogueGain: Double
        public var digitalGain: Double
        /// duration × analogue gain × digital gain.
        public var total: Double { duration * analogueGain * digitalGain }
    }

    /// The largest total exposure the program can give.
    public var maximumTotal: Double { durationRange.upperBound * analogueGainRange.upperBound * maximumDigitalGain }
    /// The smallest.
    public var minimumTotal: Double { durationRange.lowerBound * analogueGainRange.lowerBound }

    /// Under flicker, durations from this fraction of a period up to one period become one period
    /// (at most 1 EV of over-exposure); shorter ones are left alone.
    public static let flickerRoundUp = 0.5

    /// The settings for `total` seconds at base sensitivity, clamped to what the program can give
    /// (and, under flicker, rounded to whole periods — see `flickerRoundUp`).
    public func split(_ total: Double) -> Settings {
        let total = min(max(total, minimumTotal), maximumTotal)
        var duration = min(max(total / analogueGainRange.lowerBound, durationRange.lowerBound), durationRange.upperBound)
        if let period = flickerPeriod, duration >= period * ExposureProgram.flickerRoundUp {
            // Whole periods only: each row then integrates the same light and no bands appear.
            // Just under one period, one period it is: a little over-exposure beats bands.
            let periods = max((duration / period).rounded(.down), 1)
            duration = min(max(periods * period, durationRange.lowerBound), durationRange.upperBound)
        }
        let analogue = min(max(total / duration, analogueGainRange.lowerBound), analogueGainRange.upperBound)
        let digital = min(max(total / (duration * analogue), 1), maximumDigitalGain)
        return Settings(duration: duration, analogueGain: analogue, digitalGain: digital)
    }
}
