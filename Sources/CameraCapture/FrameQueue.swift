import CameraCore

/// The frames waiting for a `VideoDataOutput`'s consumer, and the consumers waiting for frames.
///
/// While late frames are discarded, at most one frame waits: a newer one replaces it and the
/// replaced one is dropped as `late`. Otherwise frames queue up; memory stays bounded because
/// each holds a buffer of the device's pool, which then runs out and drops frames itself.
/// A consumer whose task is cancelled gets nil and leaves the queue working for the next one.
final class FrameQueue: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<CapturedFrame?, Never>
    }

    private struct State {
        var frames: [CapturedFrame] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var discardsLateFrames: Bool
        var isFinished = false
        var statistics = FrameDeliveryStatistics()
    }

    private let state: Locked<State>

    init(discardsLateFrames: Bool) {
        state = Locked(State(discardsLateFrames: discardsLateFrames))
    }

    var discardsLateFrames: Bool {
        get { state.withLock { $0.discardsLateFrames } }
        set { state.withLock { $0.discardsLateFrames = newValue } }
    }

    var statistics: FrameDeliveryStatistics { state.withLock { $0.statistics } }
    var waitingCount: Int { state.withLock { $0.frames.count } }

    /// Hands `frame` to a waiting consumer or queues it; returns the frames it displaced (already
    /// counted as late drops).
    func post(_ frame: CapturedFrame) -> [CapturedFrame] {
        let (waiter, displaced) = state.withLock { state -> (Waiter?, [CapturedFrame]) in
            if !state.waiters.isEmpty {
                state.statistics.recordDelivery(frame)
                return (state.waiters.removeFirst(), [])
            }
            var displaced: [CapturedFrame] = []
            if state.discardsLateFrames {
                displaced = state.frames
                state.frames.removeAll()
                for _ in displaced { state.statistics.recordDrop(.late) }
            }
            state.frames.append(frame)
            return (nil, displaced)
        }
        waiter?.continuation.resume(returning: frame)
        return displaced
    }

    func recordDrop(_ reason: FrameDropReason) {
        state.withLock { $0.statistics.recordDrop(reason) }
    }

    /// The next frame, waiting for one if none is queued; nil once finished or when the calling
    /// task is cancelled.
    func next() async -> CapturedFrame? {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> CapturedFrame?? in
                    if !state.frames.isEmpty {
                        let frame = state.frames.removeFirst()
                        state.statistics.recordDelivery(frame)
                        return .some(frame)
                    }
                    // Checked under the lock, so a cancellation either sees the waiter or is seen here.
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// Ends the queue: waiting consumers get nil, and so does every later `next()` once the queued
    /// frames are taken.
    func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }
}
