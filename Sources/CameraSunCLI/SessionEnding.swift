import CameraCapture

/// How a running session stopped by itself: its device had no more frames (a video file played
/// once), or failed. Commands that wait for frames or for a take end there instead of waiting on.
enum SessionEnding {
    case ended
    case failed(CaptureError)

    /// The first ending among `events`; nil when the events end first (the wait was cancelled).
    static func first(of events: AsyncStream<SessionEvent>) async -> SessionEnding? {
        for await event in events {
            switch event {
            case .ended: return .ended
            case .runtimeError(let error): return .failed(error)
            case .started, .stopped, .interrupted, .interruptionEnded: continue
            }
        }
        return nil
    }

    /// Runs `body` until it returns or the session ends: an end returns, a failure throws its
    /// `CaptureError`, so a caller can tell the source's failure from its own.
    static func run(_ body: @escaping @Sendable () async throws -> Void, endingWith events: AsyncStream<SessionEvent>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                switch await first(of: events) {
                case .ended: return
                case .failed(let error): throw error
                case nil: throw CancellationError()
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
