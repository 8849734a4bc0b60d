import CameraCore

/// A flash photo the capture loop took: the frame the main flash lit, as the output that asked
/// receives it, and the flash exposure the pre-flash measured.
struct FlashCapture: Sendable {
    let frame: CapturedFrame
    let exposure: FlashExposure
}

/// The flash photos of a stream from a device with a flash.
typealias StreamFlash = StreamRequests<Void, FlashCapture>

extension StreamFlash {
    convenience init() {
        self.init(name: "flash photo", failure: PhotoCaptureError.flashFailed)
    }
}

/// The photos of one capture stream that take several frames — flash photos, brackets — as
/// outputs reach them: an output asks with its `Order` and gets back the `Capture` the capture
/// loop took for it. Every frame of a stream that can take them carries the stream's requests
/// (`CapturedFrame.flash`, `.bracket`).
///
/// The capture loop takes the requests one at a time, in order — each with its own frames — as
/// frames come; when the stream ends, the requests still waiting fail, saying so.
final class StreamRequests<Order: Sendable, Capture: Sendable>: Sendable {
    /// A request as the capture loop sees it: its number, the output that made it and what it asks.
    struct Request: Sendable {
        let id: UInt64
        let requester: ObjectIdentifier
        let order: Order
    }

    private struct Waiting {
        let request: Request
        let continuation: CheckedContinuation<Result<Capture, PhotoCaptureError>, Never>
        let timeout: Task<Void, Never>
    }

    private struct State {
        var queue: [Waiting] = []
        var inProgress: Waiting?
        var nextID: UInt64 = 0
        var isClosed = false
    }

    private let state = Locked(State())
    /// What a request is called in messages ("flash photo").
    private let name: String
    /// The error a request fails with, from what went wrong.
    private let failure: @Sendable (String) -> PhotoCaptureError

    init(name: String, failure: @escaping @Sendable (String) -> PhotoCaptureError) {
        (self.name, self.failure) = (name, failure)
    }

    /// Asks for `order` for `requester` and waits for it. A request not done within `limit` for
    /// itself and for each request ahead of it fails (a stream that stopped giving frames or
    /// drops, which its sequence would otherwise count), as do the requests still waiting when
    /// the stream ends.
    func capture(_ order: Order, for requester: some CaptureOutput, within limit: Duration) async throws(PhotoCaptureError) -> Capture {
        let result = await withCheckedContinuation { continuation in
            let accepted = state.withLock { state in
                guard !state.isClosed else { return false }
                state.nextID += 1
                let id = state.nextID, ahead = state.queue.count + (state.inProgress == nil ? 0 : 1)
                let timeout = Task { [weak self] in
                    let wait = limit * (ahead + 1)
                    try? await Task.sleep(for: wait)
                    guard !Task.isCancelled else { return }
                    guard let self else { return }
                    let queue = ahead == 0 ? "" : " (behind \(ahead) other \(name)\(ahead == 1 ? "" : "s"))"
                    complete(id, with: .failure(failure(
                        "the camera delivered no frame for it in \(wait.seconds) s\(queue) — the stream stalled; check the camera")))
                }
                state.queue.append(Waiting(request: Request(id: id, requester: ObjectIdentifier(requester), order: order),
                                           continuation: continuation, timeout: timeout))
                return true
            }
            if !accepted { continuation.resume(returning: .failure(streamEnded)) }
        }
        return try result.get()
    }

    /// The oldest waiting request, now in progress; nil while one is in progress or none waits.
    func start() -> Request? {
        state.withLock { state in
            guard state.inProgress == nil, !state.queue.isEmpty else { return nil }
            state.inProgress = state.queue.removeFirst()
            return state.inProgress?.request
        }
    }

    /// Whether request `id` is still in progress (not given up on for its time limit).
    func isInProgress(_ id: UInt64) -> Bool {
        state.withLock { $0.inProgress?.request.id == id }
    }

    /// Ends request `id`, waiting or in progress, with `result`; nothing when it already ended.
    func complete(_ id: UInt64, with result: Result<Capture, PhotoCaptureError>) {
        let ended = state.withLock { state -> Waiting? in
            if state.inProgress?.request.id == id {
                defer { state.inProgress = nil }
                return state.inProgress
            }
            guard let index = state.queue.firstIndex(where: { $0.request.id == id }) else { return nil }
            return state.queue.remove(at: index)
        }
        ended?.timeout.cancel()
        ended?.continuation.resume(returning: result)
    }

    /// Why a request fails once the stream ended.
    private var streamEnded: PhotoCaptureError {
        failure("the capture stream ended before its frames were taken — take the photo while the session runs")
    }

    /// The stream ended: every request fails, now and from now on.
    func close() {
        let ended = state.withLock { state in
            state.isClosed = true
            defer {
                state.queue.removeAll()
                state.inProgress = nil
            }
            return (state.inProgress.map { [$0] } ?? []) + state.queue
        }
        for waiting in ended {
            waiting.timeout.cancel()
            waiting.continuation.resume(returning: .failure(streamEnded))
        }
    }
}
