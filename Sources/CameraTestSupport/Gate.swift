import CameraCore

/// A gate that opens once: tasks that `pass()` before it opens wait there, and pass at once after.
/// Holds a handler in flight (a photo being taken) until a test has seen what happens meanwhile,
/// so that "while it runs" is an observed state, not a guess about how long it takes.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    public init() {}

    /// Returns once the gate is open.
    public func pass() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate for good, letting every waiting task through. Idempotent.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
