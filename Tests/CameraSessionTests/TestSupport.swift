import CameraCapture
import CameraCore
import CameraTestSupport

/// Thrown when a test body does not finish in time: a deadlock, or a frame or event that never came.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "did not finish within \(seconds) s — a deadlock, or a frame or event that never came" }
}

/// Runs `body` and fails with `DeadlineExceeded` if it takes longer than `seconds` — a guard
/// against deadlocks that does not itself wait for a stuck body (a task group would). The deadline
/// only ends a wait for what never comes, so it is long: in a full test run on 2 busy cores the
/// CPU-heavy suites can hold the concurrency pool for over a minute, and a body that was only
/// waiting its turn must not fail. It is no claim about how fast anything should be.
func withDeadline<T: Sendable>(seconds: Double = 600, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
    while await !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// The description of the error `operation` throws, or nil when it does not throw.
func failure(of operation: () async throws -> Void) async -> String? {
    do {
        try await operation()
        return nil
    } catch {
        return "\(error)"
    }
}

/// Every event a session reported, once the session is gone (its stream then ends).
func allEvents(_ events: AsyncStream<SessionEvent>) async -> [SessionEvent] {
    var all: [SessionEvent] = []
    for await event in events { all.append(event) }
    return all
}

/// A session with `device` as input and `outputs`, retrying interruptions every millisecond.
func makeSession(_ device: ScriptedDevice, outputs: [VideoDataOutput] = []) async throws -> CaptureSession {
    let session = CaptureSession(interruptionRetryInterval: .milliseconds(1))
    try await session.configure { config in
        try config.add(DeviceInput(device))
        for output in outputs { try config.add(output) }
    }
    return session
}

extension VideoDataOutput.Frames.Iterator {
    /// Skips frames until the one numbered `sequence` or later.
    mutating func frame(numbered sequence: UInt64) async throws -> CapturedFrame {
        while let frame = await next() {
            if frame.sequenceNumber >= sequence { return frame }
        }
        throw CancellationError()
    }
}
