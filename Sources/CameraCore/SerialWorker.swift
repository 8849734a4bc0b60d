import Foundation

/// A thread of its own that runs the work handed to it one piece at a time, in the order it was
/// handed over: the package's serial queue, for ordered work that blocks or runs long (an encoder,
/// a device's reads) and so stays off the concurrency pool, whose few threads every task needs.
///
/// The thread starts with the first work and waits on a `Condition` for more. Once the worker is
/// released, the thread runs what was handed over before and ends; nothing waits for it, so work
/// may hold the worker's last reference.
public final class SerialWorker: Sendable {
    typealias Work = @Sendable () -> Void

    /// The work waiting, and where the thread stands; `internal` so that tests can watch it end.
    struct State: Sendable {
        enum Phase: Sendable { case notStarted, running, ended }

        var queue: [Work] = []
        var phase = Phase.notStarted
        var isReleased = false
    }

    let state = Condition(State())
    private let name: String

    /// A worker whose thread, once it starts, is called `name`.
    public init(name: String) {
        self.name = name
    }

    deinit {
        state.withLock { $0.isReleased = true }
    }

    /// Hands `work` over to run after all handed over before; returns at once.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.queue.append(work)
            guard state.phase == .notStarted else { return false }
            state.phase = .running
            return true
        }
        guard start else { return }
        let thread = Thread { [state] in SerialWorker.work(state) }
        thread.name = name
        thread.start()
    }

    /// Runs `work` after all handed over before, and returns its result: the caller's thread waits
    /// for it (so call this off the concurrency pool, and never from work on this worker, which
    /// would wait for itself). `work`'s error passes through with its type.
    public func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) throws(Failure) -> T {
        let outcome = Condition<Result<T, Failure>?>(nil)
        submit {
            let result = Result(catching: work)
            outcome.withLock { $0 = result }
        }
        return try outcome.wait { $0.map { .done($0) } ?? .waitForChange(until: nil) }.get()
    }

    /// Runs `work` after all handed over before, and returns its result to the awaiting task,
    /// which gives its thread back to the pool meanwhile. `work`'s error passes through with its type.
    public func perform<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            submit { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }

    /// The worker's thread: runs the work as it comes, until the worker is released and none is left.
    private static func work(_ state: Condition<State>) {
        while true {
            let next = state.wait { state -> Condition<State>.Step<[Work]?> in
                if !state.queue.isEmpty {
                    defer { state.queue = [] }
                    return .done(state.queue)
                }
                return state.isReleased ? .done(nil) : .waitForChange(until: nil)
            }
            guard var batch = next else { break }
            // Each piece of work is let go of once it has run, as a queue would: what it holds
            // (a frame's pooled buffer) goes back before the next piece runs.
            batch.reverse()
            while let work = batch.popLast() { work() }
        }
        state.withLock { $0.phase = .ended }
    }
}
