import CameraCore

/// Hands each published value to every subscriber's own `AsyncStream`: one stream per
/// subscriber, removed when its consumer stops listening.
package final class SubscriberList<Element: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    }

    private let state = Locked(State())
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy

    package init(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy) {
        self.bufferingPolicy = bufferingPolicy
    }

    /// A new stream that receives every value published from now on.
    package func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    var isEmpty: Bool { state.withLock { $0.continuations.isEmpty } }

    package func publish(_ element: Element) {
        // Yielded outside the lock: a terminated stream calls onTermination, which takes it.
        for continuation in state.withLock({ Array($0.continuations.values) }) {
            continuation.yield(element)
        }
    }

    /// Ends every subscriber's stream.
    package func finish() {
        for continuation in state.withLock({ Array($0.continuations.values) }) {
            continuation.finish()
        }
    }
}
