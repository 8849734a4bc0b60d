import CameraCore
import Foundation

/// One client's endless response body (an MJPEG or SSE stream): a small queue of parts that the
/// producer fills and the client's connection thread drains.
///
/// The queue keeps only the newest `capacity` parts: when a client reads slower than parts arrive,
/// older queued parts are dropped (counted in `droppedParts`), so a slow viewer never grows memory
/// and never slows the producer or the other viewers. A part already being written is finished, so
/// the client always receives whole parts.
public final class ResponseStream: @unchecked Sendable {
    // Every mutable property below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var queued: [Data] = []
    private var current = Data()
    private var offset = 0
    private var finished = false
    private var closed = false
    private var dropped = 0
    private var closeActions: [@Sendable () -> Void] = []

    private let capacity: Int
    private let heartbeat: Data?
    private let heartbeatInterval: TimeInterval

    /// - Parameters:
    ///   - capacity: parts kept waiting for a slow client; 1 means "only the newest".
    ///   - heartbeat: bytes written when no part came for `heartbeatInterval` (e.g. an SSE comment),
    ///     so that a client that went away is noticed even when the producer is idle.
    public init(capacity: Int = 1, heartbeat: Data? = nil, heartbeatInterval: Duration = .seconds(15)) {
        precondition(capacity >= 1, "ResponseStream capacity \(capacity) must be at least 1")
        self.capacity = capacity
        self.heartbeat = heartbeat
        self.heartbeatInterval = heartbeatInterval.seconds
    }

    /// Queues `part` for the client, dropping the oldest queued part when the queue is full.
    /// Returns false once the stream is closed (the client went away or the server is stopping):
    /// the producer should stop.
    @discardableResult
    public func send(_ part: Data) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, !finished else { return false }
        if queued.count == capacity {
            queued.removeFirst()
            dropped += 1
        }
        queued.append(part)
        condition.signal()
        return true
    }

    /// Ends the body once the queued parts are written.
    public func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Parts dropped because this client read slower than they arrived.
    public var droppedParts: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Runs `action` once, when the stream closes (at once if it already has).
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        condition.lock()
        if closed {
            condition.unlock()
            action()
            return
        }
        closeActions.append(action)
        condition.unlock()
    }

    /// Closes the stream: the reader ends the body, `send` returns false, the close actions run.
    func close() {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return
        }
        closed = true
        let actions = closeActions
        closeActions = []
        condition.broadcast()
        condition.unlock()
        for action in actions { action() }
    }

    /// Copies the next bytes of the body into `buffer`, waiting until a part arrives. Returns the
    /// number of bytes copied, or nil when the body has ended (finished and drained, or closed).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while offset == current.count {
            if closed { return nil }
            if let next = queued.first {
                queued.removeFirst()
                current = next
                offset = 0
            } else if finished {
                return nil
            } else if !condition.wait(until: Date(timeIntervalSinceNow: heartbeatInterval)), let heartbeat, queued.isEmpty, !closed {
                current = heartbeat
                offset = 0
            }
        }
        let count = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
