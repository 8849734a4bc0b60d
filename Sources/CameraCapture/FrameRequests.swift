import CameraCore

/// The photos of several frames asked of one capture stream (`FrameSequence`), reached through
/// the connection of the output that asks (`CaptureConnection.frameRequests`): an output submits
/// a sequence and gets it back, finished, with the frame that ended it as the output receives it.
///
/// The capture loop takes the sequences one at a time, in order, each with its own frames; when
/// the stream ends, the sequences still waiting fail, saying so.
public final class FrameRequests: Sendable {
    /// A sequence as the capture loop takes it: its number, the output that asked and the sequence.
    struct Request: Sendable {
        let id: UInt64
        let requester: ObjectIdentifier
        var sequence: any FrameSequence
    }

    private struct Waiting {
        let request: Request
        let continuation: CheckedContinuation<Result<(any FrameSequence, CapturedFrame), FrameRequestError>, Never>
        let timeout: Task<Void, Never>
    }

    private struct State {
        var queue: [Waiting] = []
        var inProgress: Waiting?
        var nextID: UInt64 = 0
        var isClosed = false
    }

    /// Whether the stream's device has a flash.
    public let hasFlash: Bool
    /// Whether the stream's device delivers raw (bayer16) frames, which a bracket is merged from.
    public let deliversRawFrames: Bool
    private let state = Locked(State())

    init(hasFlash: Bool, deliversRawFrames: Bool) {
        (self.hasFlash, self.deliversRawFrames) = (hasFlash, deliversRawFrames)
    }

    /// Asks for `sequence` for `requester` and waits for it: the sequence as it ended and the frame
    /// that ended it, as `requester` receives it. A request not done within `limit` for itself and
    /// for each request ahead of it fails (a stream that stopped giving frames), as do the
    /// requests still waiting when the stream ends.
    public func capture<Sequence: FrameSequence>(_ sequence: Sequence, for requester: some CaptureOutput,
                                                 within limit: Duration) async throws(FrameRequestError) -> (Sequence, CapturedFrame) {
        let result = await withCheckedContinuation { continuation in
            let accepted = state.withLock { state in
                guard !state.isClosed else { return false }
                state.nextID += 1
                let id = state.nextID, ahead = state.queue.count + (state.inProgress == nil ? 0 : 1)
                let timeout = Task { [weak self] in
                    let wait = limit * (ahead + 1)
                    try? await Task.sleep(for: wait)
                    guard !Task.isCancelled, let self else { return }
                    let queue = ahead == 0 ? "" : " (behind \(ahead) other request\(ahead == 1 ? "" : "s"))"
                    complete(id, with: .failure(FrameRequestError(
                        .noFrames, "the camera delivered no frame for it in \(wait.seconds) s\(queue) — the stream stalled; check the camera")))
                }
                state.queue.append(Waiting(request: Request(id: id, requester: ObjectIdentifier(requester), sequence: sequence),
                                           continuation: continuation, timeout: timeout))
                return true
            }
            if !accepted { continuation.resume(returning: .failure(Self.streamEnded)) }
        }
        let (finished, frame) = try result.get()
        guard let finished = finished as? Sequence else { preconditionFailure("a request comes back as the sequence it was") }
        return (finished, frame)
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
    func complete(_ id: UInt64, with result: Result<(any FrameSequence, CapturedFrame), FrameRequestError>) {
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
    static let streamEnded = FrameRequestError(
        .noFrames, "the capture stream ended before its frames were taken — take the photo while the session runs")

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
            waiting.continuation.resume(returning: .failure(Self.streamEnded))
        }
    }
}
