import Foundation

/// Threads of its own that run the stripes of one pass of pixel work beside the caller, so that a
/// frame's passes (develop, denoise, tone-map, a sensor's read-out) use every core.
///
/// `run` hands out the pass's stripes one at a time: the caller takes them as well as the pool's
/// threads, so a pass never waits for a thread to wake, and a thread the system holds back leaves
/// its share to the others. Two passes may run at once (the camera's read-out and the ISP): the
/// threads take stripes of both. The pool's threads wait on a `Condition` for work; the caller
/// waits only for stripes already running, which compute and do not block.
public final class StripePool: Sendable {
    /// The process's pool: as many threads as cores, the caller counted as one.
    public static let shared = StripePool(threads: ProcessInfo.processInfo.activeProcessorCount)

    /// Threads running a pass, the caller's included: 1 runs every stripe on the caller.
    public let threadCount: Int
    private let state = Condition(State())

    /// A pool of `threads` − 1 threads of its own (none for 1), which end with the pool.
    public init(threads: Int) {
        threadCount = max(threads, 1)
        for _ in 1..<threadCount {
            let state = state
            let thread = Thread { StripePool.work(state) }
            thread.name = "camerasun-stripes"
            thread.start()
        }
    }

    deinit {
        state.withLock { $0.isClosed = true }
    }

    /// Calls `body` with each stripe in `0..<count`, on this thread and the pool's, and returns when
    /// every stripe has run. Stripes run in any order and at once: each must write only its own
    /// memory, and read nothing another stripe writes.
    public func run(stripes count: Int, _ body: (Int) -> Void) {
        guard count > 1 && threadCount > 1 else {
            for stripe in 0..<count { body(stripe) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = Job(count: count, body: body)
            state.withLock { $0.jobs.append(job) }
            while let stripe = state.withLock({ $0.take(from: job) }) {
                body(stripe)
                state.withLock { _ in job.unfinished -= 1 }
            }
            state.wait { _ -> Condition<State>.Step<Void> in
                guard job.unfinished == 0 else { return .waitForChange(until: nil) }
                // `withoutActuallyEscaping` checks that nothing holds `body` past its end.
                job.body = nil
                return .done(())
            }
        }
    }

    /// Calls `body` with stripes of the rows `0..<rows` (each but the last a multiple of `multiple`
    /// rows), and each stripe's index in `0..<stripeCount(rows:multiple:)`, as `run(stripes:)` does.
    public func run(rows: Int, multiple: Int = 1, _ body: (_ stripe: Int, _ rows: Range<Int>) -> Void) {
        let count = stripeCount(rows: rows, multiple: multiple)
        let units = (rows + multiple - 1) / multiple
        run(stripes: count) { stripe in
            let start = units * stripe / count * multiple, end = min(units * (stripe + 1) / count * multiple, rows)
            body(stripe, start..<end)
        }
    }

    /// How many stripes `run(rows:multiple:)` cuts `rows` rows into: `stripesPerThread` a thread, at
    /// most one per `multiple` rows.
    public func stripeCount(rows: Int, multiple: Int = 1) -> Int {
        max(min(threadCount * Self.stripesPerThread, (rows + multiple - 1) / multiple), 1)
    }

    /// Stripes a thread: more than one, so that a thread the system holds back leaves its
    /// share to the others.
    static let stripesPerThread = 4

    /// A pool thread: takes stripes of any pass until the pool ends.
    private static func work(_ state: Condition<State>) {
        while true {
            let next = state.wait { state -> Condition<State>.Step<(job: Job, stripe: Int)?> in
                if state.isClosed { return .done(nil) }
                guard let job = state.jobs.first, let stripe = state.take(from: job) else { return .waitForChange(until: nil) }
                return .done((job, stripe))
            }
            guard let next else { return }
            runStripe(next.stripe, of: next.job)
            state.withLock { _ in next.job.unfinished -= 1 }
        }
    }

    /// Runs one stripe of `job` in a scope of its own, so that this thread lets go of the job's
    /// body before it reports the stripe done.
    @inline(never)
    private static func runStripe(_ stripe: Int, of job: Job) {
        job.body?(stripe)
    }

    /// The passes with stripes not yet taken.
    private struct State: Sendable {
        var jobs: [Job] = []
        var isClosed = false

        /// The next stripe of `job`, dropping the job from the list once its last one is taken.
        mutating func take(from job: Job) -> Int? {
            guard job.next < job.count else { return nil }
            job.next += 1
            if job.next == job.count { jobs.removeAll { $0 === job } }
            return job.next - 1
        }
    }

    /// One pass: its body and its count of stripes taken and not yet finished. The counts and
    /// `body` change only under the pool's lock; `run` lets go of `body` once every stripe has run.
    private final class Job: @unchecked Sendable {
        let count: Int
        var body: ((Int) -> Void)?
        var next = 0
        var unfinished: Int

        init(count: Int, body: @escaping (Int) -> Void) {
            (self.count, self.body, unfinished) = (count, body, count)
        }
    }
}
