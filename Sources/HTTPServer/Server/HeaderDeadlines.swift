import CameraCore
import Foundation

/// Closes connections that do not send a request's complete headers in time — within `timeout` of
/// opening, or of the answer to their previous request — so that slow or silent clients
/// (slowloris) cannot hold connections for the whole idle timeout. The time is a deadline, not
/// an inactivity limit, so dripping a byte now and then does not extend it. Once a request's headers
/// are in there is no deadline until it is answered: long-lived answers (MJPEG, SSE) and bodies are
/// not cut off.
///
/// libmicrohttpd has no such limit, so one thread of its own waits for the earliest deadline and
/// shuts the socket down (`shutdown(2)`); the connection's thread then sees the end of the stream
/// and closes the connection as usual. A socket is shut down only while its connection is
/// registered, and libmicrohttpd reports a connection closed (`forget`) before it closes the socket,
/// so a number the system has reused for another socket is never touched.
final class HeaderDeadlines: @unchecked Sendable {
    // Every mutable property below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    /// Each open connection's socket, by connection.
    private var sockets: [UInt: Int32] = [:]
    /// The connections waiting for headers, with their deadlines.
    private var deadlines: [UInt: ContinuousClock.Instant] = [:]
    private var stopped = false

    private let timeout: Duration

    init(timeout: Duration) {
        self.timeout = timeout
        Thread { [self] in watch() }.start()
    }

    /// A connection opened on `socket`: its first request's headers are due.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        update {
            sockets[Self.key(connection)] = socket
            deadlines[Self.key(connection)] = .now + timeout
        }
    }

    /// A request's headers arrived: no deadline until it is answered.
    func headersReceived(_ connection: OpaquePointer) {
        update { deadlines[Self.key(connection)] = nil }
    }

    /// A request was answered: the next request's headers are due (if the connection stays open).
    func answered(_ connection: OpaquePointer) {
        update {
            guard sockets[Self.key(connection)] != nil else { return }
            deadlines[Self.key(connection)] = .now + timeout
        }
    }

    /// The connection is closing: its socket is no longer ours to shut down.
    func forget(_ connection: OpaquePointer) {
        update {
            sockets[Self.key(connection)] = nil
            deadlines[Self.key(connection)] = nil
        }
    }

    /// Ends the watching thread.
    func stop() {
        update { stopped = true }
    }

    private func update(_ change: () -> Void) {
        condition.lock()
        change()
        condition.signal()
        condition.unlock()
    }

    private func watch() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let now = ContinuousClock.now
            for (connection, deadline) in deadlines where deadline <= now {
                deadlines[connection] = nil
                if let socket = sockets[connection] { shutdown(socket, Int32(SHUT_RDWR)) }
            }
            if let earliest = deadlines.values.min() {
                _ = condition.wait(until: Date(timeIntervalSinceNow: (earliest - now).seconds))
            } else {
                condition.wait()
            }
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
