/// Moves the exposure bias to a new value at a limited rate, so a change on the EV slider never
/// jumps on screen: −2 → +2 EV takes 1 s at the default 4 EV/s. Cancelling holds where it is.
public struct EVRamp: Sendable, Hashable {
    public private(set) var current: Double
    public private(set) var target: Double
    /// EV per second.
    public var rate: Double

    public static let defaultRate = 4.0

    public init(value: Double = 0, rate: Double = EVRamp.defaultRate) {
        precondition(rate > 0, "an EV ramp needs a positive rate")
        current = value
        target = value
        self.rate = rate
    }

    public var isFinished: Bool { current == target }

    /// Heads for `value` from wherever the ramp is now.
    public mutating func ramp(to value: Double) {
        target = value
    }

    /// Stops at the current value.
    public mutating func cancel() {
        target = current
    }

    /// Advances by `seconds` and returns the new value (it ends exactly on the target).
    @discardableResult
    public mutating func advance(by seconds: Double) -> Double {
        let step = rate * max(seconds, 0)
        // A hair of tolerance so accumulated rounding cannot leave the ramp a step short.
        current = abs(target - current) <= step * (1 + 1e-9) ? target : current + (target > current ? step : -step)
        return current
    }
}
