import CameraCore

/// Thrown when a test body does not finish in time: a deadlock, or a frame or event that never came.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    let seconds: Double
    public var description: String { "did not finish within \(seconds) s — a deadlock, or a frame or event that never came" }
}

/// Runs `body` and fails with `DeadlineExceeded` if it takes longer than `seconds` — a guard
/// against deadlocks that does not itself wait for a stuck body (a task group would). The deadline
/// only ends a wait for what never comes, so it is long: in a full test run on 2 busy cores the
/// CPU-heavy suites can hold the concurrency pool for over a minute, and a body that was only
/// waiting its turn must not fail. It is no claim about how fast anything should be.
public func withDeadline<T: Sendable>(seconds: Double = 600, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let once = ResumeOnce(continuation)
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            once.resume(with: .failure(DeadlineExceeded(seconds: seconds)))
        }
        Task {
            do { once.resume(with: .success(try await body())) } catch { once.resume(with: .failure(error)) }
            timer.cancel()
        }
    }
}

/// A continuation that only the first of several racing tasks resumes.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Locked(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}

/// Waits, polling every millisecond, until `condition` holds; the caller's deadline bounds it.
public func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
    while await !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
}
