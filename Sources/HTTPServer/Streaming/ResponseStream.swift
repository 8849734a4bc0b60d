import CameraCore
import Foundation

/// One client's endless response body (an MJPEG or SSE stream): a small queue of parts that the
/// producer fills and the client's connection thread drains.
///
/// The queue keeps only the newest `capacity` parts: when a client reads slower than parts arrive,
/// older queued parts are dropped (counted in `droppedParts`), so a slow viewer never grows memory
/// and never slows the producer or the other viewers. A part already being written is finished, so
/// the client always receives whole parts.
public final class ResponseStream: Sendable {
    private struct State {
        var queued: [Data] = []
        var current = Data()
        var offset = 0
        var finished = false
        var closed = false
        var dropped = 0
        var closeActions: [@Sendable () -> Void] = []
    }

    private let state = Condition(State())
    private let capacity: Int
    private let heartbeat: Data?
    private let heartbeatInterval: Duration

    /// - Parameters:
    ///   - capacity: parts kept waiting for a slow client; 1 means "only the newest".
    ///   - heartbeat: bytes written when no part came for `heartbeatInterval` (e.g. an SSE comment),
    ///     so that a client that went away is noticed even when the producer is idle.
    public init(capacity: Int = 1, heartbeat: Data? = nil, heartbeatInterval: Duration = .seconds(15)) {
        precondition(capacity >= 1, "ResponseStream capacity \(capacity) must be at least 1")
        self.capacity = capacity
        self.heartbeat = heartbeat
        self.heartbeatInterval = heartbeatInterval
    }

    /// Queues `part` for the client, dropping the oldest queued part when the queue is full.
    /// Returns false once the stream is closed (the client went away or the server is stopping):
    /// the producer should stop.
    @discardableResult
    public func send(_ part: Data) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            if state.queued.count == capacity {
                state.queued.removeFirst()
                state.dropped += 1
            }
            state.queued.append(part)
            return true
        }
    }

    /// Ends the body once the queued parts are written.
    public func finish() {
        state.withLock { $0.finished = true }
    }

    /// Parts dropped because this client read slower than they arrived.
    public var droppedParts: Int {
        state.withLock { $0.dropped }
    }

    /// Runs `action` once, when the stream closes (at once if it already has).
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if !state.closed { state.closeActions.append(action) }
            return state.closed
        }
        if closed { action() }
    }

    /// Closes the stream: the reader ends the body, `send` returns false, the close actions run.
    func close() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.closeActions = [] }
            return state.closeActions
        }
        for action in actions { action() }
    }

    /// Copies the next bytes of the body into `buffer`, waiting until a part arrives (or, with a
    /// heartbeat, until `heartbeatInterval` passes without one). Returns the number of bytes
    /// copied, or nil when the body has ended (finished and drained, or closed).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let heartbeatDue = heartbeat.map { _ in ContinuousClock.now + heartbeatInterval }
        return state.wait { state -> Condition<State>.Step<Int?> in
            while state.offset == state.current.count {
                if state.closed { return .done(nil) }
                if let next = state.queued.first {
                    state.queued.removeFirst()
                    (state.current, state.offset) = (next, 0)
                } else if state.finished {
                    return .done(nil)
                } else if let heartbeat, let heartbeatDue, ContinuousClock.now >= heartbeatDue {
                    (state.current, state.offset) = (heartbeat, 0)
                } else {
                    return .waitForChange(until: heartbeatDue)
                }
            }
            let (offset, count) = (state.offset, min(buffer.count, state.current.count - state.offset))
            state.current.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
            }
            state.offset += count
            return .done(count)
        }
    }
}
