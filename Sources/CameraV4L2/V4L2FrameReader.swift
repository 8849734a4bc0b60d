import CameraCapture
import CameraCore
import Foundation

/// A stream's one reader thread and its hand-off to `nextFrame`: the thread lives from
/// STREAMON to close, and reads (poll, DQBUF, copy or decode, QBUF) only while a `next()` waits,
/// so frames stay in the driver's queue until someone wants one — no thread per wait, and no
/// frame read that nobody asked for.
///
/// ```
///  next() ──► waiter + demand ──► reader thread: poll ─► DQBUF ─► copy ─► QBUF ──► waiter resumed
///  cancelled: the waiter resumes at once (CancellationError); a frame read for it waits in the
///             one-frame hand-off for the next `next()`
///  stop(): waiters fail, the thread ends after its current poll
/// ```
///
/// A slow consumer costs no memory here: frames wait in the driver's buffers, and when those are
/// all full the driver skips frames, which the session sees as a gap in the sequence numbers.
final class V4L2FrameReader: Sendable {
    typealias Delivery = Result<V4L2Stream.TakenFrame, any Error>

    private struct State {
        /// The `next()` calls waiting, oldest first.
        var waiters: [(id: Int, continuation: CheckedContinuation<Delivery, Never>)] = []
        var lastID = 0
        /// Waiters cancelled before they were added.
        var cancelled: Set<Int> = []
        /// What was read for a waiter that left: the next `next()` takes it.
        var unclaimed: Delivery?
        /// Why `next()` fails once the stream closed.
        var stopped: CaptureError?
    }

    /// What the idle thread waits on: a `next()` waiting, or the reader stopped.
    private let state = Condition(State())

    /// Starts the thread named `name` (the kernel keeps 15 characters: "v4l2:video0"), which
    /// calls `read` for each waiting `next()`: `read` takes a predicate saying whether someone
    /// still waits, and returns nil when they stopped waiting before a frame came, or when there
    /// is nothing left to read from.
    func start(name: String, read: @escaping @Sendable (_ isWanted: () -> Bool) -> Delivery?) {
        let thread = Thread { [self] in
            // Named from inside, through the kernel: Foundation's thread start re-applies the name
            // it read on entry, undoing one set from outside meanwhile, and its own setter does
            // nothing until `start()` has returned to the thread that called it.
            try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            while waitForDemand() {
                guard let delivery = read({ isWanted }) else { continue }
                deliver(delivery)
            }
        }
        thread.start()
    }

    /// The next frame the thread reads, or the error reading it failed with. Throws
    /// `CancellationError` as soon as the task is cancelled, and the stop error once stopped.
    func next() async throws -> V4L2Stream.TakenFrame {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        let delivery = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
                let ready = state.withLock { (state) -> Delivery? in
                    if let stopped = state.stopped { return .failure(stopped) }
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if let unclaimed = state.unclaimed {
                        state.unclaimed = nil
                        return unclaimed
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: .failure(CancellationError()))
        }
        // A cancellation that came after the delivery left its mark.
        _ = state.withLock { $0.cancelled.remove(id) }
        return try delivery.get()
    }

    /// Ends the thread after its current read, and fails every `next()`, now and to come, with `error`.
    func stop(failing error: CaptureError) {
        let waiters = state.withLock { state in
            state.stopped = error
            state.unclaimed = nil
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(error)) }
    }

    /// Whether a `next()` waits.
    private var isWanted: Bool { state.withLock { !$0.waiters.isEmpty } }

    /// Blocks until a `next()` waits (true) or the reader is stopped (false).
    private func waitForDemand() -> Bool {
        state.wait { state in
            state.stopped != nil ? .done(false) : !state.waiters.isEmpty ? .done(true) : .waitForChange(until: nil)
        }
    }

    /// Hands `delivery` to the oldest waiter, or keeps it for the next `next()` (a frame kept
    /// before it goes: the session counts the gap) — unless the reader is stopped.
    private func deliver(_ delivery: Delivery) {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            guard state.stopped == nil else { return nil }
            guard !state.waiters.isEmpty else {
                state.unclaimed = delivery
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: delivery)
    }
}
