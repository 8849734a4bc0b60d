import Foundation

/// A value behind a lock that threads block on until it is what they need: `Locked` for the
/// waits of a thread of its own (a reader waiting for demand, a sender for its queue, a
/// watchdog for the next deadline). It is also the package's semaphore: a count that `wait`
/// takes from and `withLock` adds to.
///
/// Every `withLock` wakes the waiters, which look at the value again. `wait` blocks its thread:
/// call it only off the concurrency pool (`onOwnThread`, or a thread the type owns).
public final class Condition<Value: Sendable>: @unchecked Sendable {
    /// What a waiter decides, looking at the value: it is done (with a result), or it waits for
    /// the next change — until an instant at most, when it looks again.
    public enum Step<Result> {
        case done(Result)
        case waitForChange(until: ContinuousClock.Instant?)
    }

    private let condition = NSCondition()
    // Read and written only while `condition` is locked.
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiter.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Calls `step` with the value, under the lock, until it is done: after each
    /// `waitForChange` the thread sleeps until the value changes or the instant comes.
    public func wait<Result>(_ step: (inout Value) throws -> Step<Result>) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch try step(&value) {
            case .done(let result): return result
            case .waitForChange(until: nil): condition.wait()
            case .waitForChange(until: let instant?):
                let left = instant - ContinuousClock.now
                if left > .zero { _ = condition.wait(until: Date(timeIntervalSinceNow: left.seconds)) }
            }
        }
    }
}

extension Condition where Value == Int {
    /// As a semaphore: takes one from the count, waiting while it is 0; false when `deadline`
    /// came first.
    public func take(before deadline: ContinuousClock.Instant? = nil) -> Bool {
        wait { count in
            if count > 0 {
                count -= 1
                return .done(true)
            }
            if let deadline, ContinuousClock.now >= deadline { return .done(false) }
            return .waitForChange(until: deadline)
        }
    }

    /// As a semaphore: adds one to the count, waking a waiter.
    public func give() {
        withLock { $0 += 1 }
    }
}
