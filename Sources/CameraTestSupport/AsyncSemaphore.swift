import CameraCore

/// At most `count` holders at a time; the others wait, suspended, not on a thread. Spaces out
/// work that loads the machine, such as the `camerasun` processes of the end-to-end tests, so
/// that realtime tests beside them keep their pace.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    public init(_ count: Int) {
        state = Locked(State(free: count))
    }

    /// Returns once a place is free, and takes it.
    public func acquire() async {
        await withCheckedContinuation { continuation in
            let taken = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if taken { continuation.resume() }
        }
    }

    /// Gives a place back, to the longest waiting holder when there is one.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
