import CameraCore
import Foundation

/// A smooth zoom from one factor to another at a constant rate in stops (doublings) per second:
/// the factor scales by 2^(rate·t), so every doubling takes the same time, which looks even to the
/// eye. The ramp ends exactly on its target and can be cancelled, holding the factor it had reached.
///
/// Times are seconds on the caller's clock (e.g. frame presentation times); the ramp starts at
/// `startTime`.
///
/// ```swift
/// var ramp = try ZoomRamp(from: 1, to: 4, rate: 2)   // 2 stops in 1 s
/// ramp.factor(at: 0.5)                                // 2
/// ramp.factor(at: 1)                                  // 4, exactly
/// ```
public struct ZoomRamp: Sendable, Hashable {
    /// Zoom rates allowed, in stops per second (the magnitude; the direction comes from the factors).
    public static let rateRange: ClosedRange<Double> = 0.01...100

    /// The factor at `startTime`.
    public let start: Double
    /// The factor the ramp ends on.
    public let target: Double
    /// Stops per second, positive when zooming in, negative when zooming out.
    public let rate: Double
    public let startTime: Double
    /// Seconds from `startTime` to the target: log2(target / start) / rate.
    public let duration: Double
    /// When the ramp was cancelled and the factor it holds from then on, or nil.
    public private(set) var cancellation: Cancellation?

    /// The moment a ramp was cancelled and the factor it holds from then on.
    public struct Cancellation: Sendable, Hashable {
        public let time: Double
        public let factor: Double
    }

    /// A ramp from `from` to `to` at `rate` stops per second (its sign is ignored: zooming in or out
    /// follows from the factors). Both factors must lie in 1…`maximumFactor` and the rate's
    /// magnitude in `rateRange`, else a `ValueOutOfRangeError` names the range.
    public init(from: Double, to: Double, rate: Double, startTime: Double = 0, maximumFactor: Double = 10) throws(ValueOutOfRangeError) {
        start = try Self.checkFactor(from, maximumFactor: maximumFactor)
        target = try Self.checkFactor(to, maximumFactor: maximumFactor)
        let speed = try ValueOutOfRangeError.check(abs(rate), in: Self.rateRange, setting: "zoom rate", unit: "stops/s")
        self.rate = to < from ? -speed : speed
        self.startTime = startTime
        duration = abs(log2(to / from)) / speed
    }

    /// `factor` if it lies in 1…`maximumFactor`, else a `ValueOutOfRangeError` naming that range.
    public static func checkFactor(_ factor: Double, maximumFactor: Double) throws(ValueOutOfRangeError) -> Double {
        precondition(maximumFactor >= 1, "the maximum zoom factor must be at least 1")
        return try ValueOutOfRangeError.check(factor, in: 1...maximumFactor, setting: "zoom factor", unit: "x")
    }

    /// The time the ramp stops changing: its end, or the moment it was cancelled.
    public var endTime: Double {
        cancellation?.time ?? startTime + duration
    }

    /// The zoom factor at `time`: `start` before the ramp, `target` exactly from its end on, the
    /// held factor once cancelled.
    public func factor(at time: Double) -> Double {
        if let cancellation, time >= cancellation.time { return cancellation.factor }
        if time <= startTime { return start }
        if time >= startTime + duration { return target }
        let factor = start * exp2(rate * (time - startTime))
        // Rounding must not step past the target just before the end.
        return rate > 0 ? min(factor, target) : max(factor, target)
    }

    /// True from the ramp's end (or its cancellation) on.
    public func isFinished(at time: Double) -> Bool {
        time >= endTime
    }

    /// Stops the ramp at `time`: it holds the factor it had then, which is returned. Cancelling a
    /// ramp that has ended or was already cancelled changes nothing and returns the factor it holds.
    @discardableResult
    public mutating func cancel(at time: Double) -> Double {
        if isFinished(at: time) { return factor(at: time) }
        let held = factor(at: time)
        cancellation = Cancellation(time: time, factor: held)
        return held
    }
}
