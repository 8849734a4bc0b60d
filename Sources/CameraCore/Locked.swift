import Synchronization

/// A value behind a mutex, like `Synchronization.Mutex`, whose critical sections ThreadSanitizer
/// can see.
///
/// On Linux, `Mutex` locks with futexes that TSan does not intercept, so two threads taking turns
/// under a `Mutex` are reported as a race (`swift test --sanitize=thread`). Each critical section
/// here also reads an atomic on entry (acquiring) and bumps it on exit (releasing): an ordering the
/// mutex already guarantees, stated where TSan looks — two uncontended atomic operations per lock.
public struct Locked<Value: ~Copyable>: ~Copyable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<UInt>(0)

    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { value throws(E) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}

extension Locked: Sendable where Value: ~Copyable {}
