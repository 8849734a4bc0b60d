import CameraCore
import Foundation

/// Keeps the server's connections for clients that use them, so that anyone who can connect cannot
/// lock out a client with the token however many connections they open and from however many
/// addresses (slowloris: slow or silent headers, slow bodies, idle connections reopened at once).
///
/// - Deadlines: a request's headers are due within `headerTimeout` of the connection opening or of
///   the previous answer, and the whole request, body included, within `requestTimeout` of the same
///   moment. They are deadlines, not inactivity limits, so dripping a byte now and then does not
///   extend them. Once a request is complete there is none until it is answered: long-lived answers
///   (MJPEG, SSE) are not cut off.
/// - Crowding: when a connection opens and more than `crowdedAbove` are open, another connection
///   that has not shown the token is closed — from the client address holding most such connections,
///   its oldest; when there is none and more than `limit` are open, the new one is. A client that has shown the token on a connection keeps it; so, without a token, does
///   one whose request is in progress. A new client's connection, one of few from its address, is
///   closed only when every address holds as few, and it leaves that state as soon as its headers
///   arrive. Requests without the token are refused when their headers arrive (`ConnectionHandler`),
///   so such a connection can hold a slot only as long as it takes to send them.
///
/// libmicrohttpd has neither, so one thread of its own waits for the earliest deadline, and the
/// connection callback crowds out; both shut the socket down (`shutdown(2)`), after which the
/// connection's thread sees the end of the stream and closes the connection as usual. A socket is
/// shut down only while its connection is registered, and libmicrohttpd reports a connection closed
/// (`forget`) before it closes the socket, so a number the system has reused for another socket is
/// never touched.
final class ConnectionGuard: Sendable {
    /// The limits a guard applies.
    struct Limits: Sendable {
        var headerTimeout: Duration
        var requestTimeout: Duration
        /// Open connections above which one that has not shown the token is closed for each new one.
        var crowdedAbove: Int
        /// Open connections above which a new one is closed when no other can be.
        var limit: Int
        /// Whether requests need a token: without one, no connection can show it, and a connection
        /// is closed for crowding only while it waits for a request.
        var tokenRequired: Bool
    }

    private struct Entry {
        let socket: Int32
        /// The client's address without the port (IPv4 or IPv6 bytes).
        let address: [UInt8]
        /// Opening order: smaller is older.
        let order: UInt64
        /// When the connection opened or its previous request was answered.
        var requestStart: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant?
        var requesting = false
        /// A request on this connection carried the right token.
        var authenticated = false
        /// Shut down, waiting for its thread to close it.
        var closing = false
    }

    /// The open connections, and whether the guard was stopped.
    private struct State {
        var entries: [UInt: Entry] = [:]
        var openedCount: UInt64 = 0
        var stopped = false

        /// Shuts down the oldest connection without the token of the address holding most of them,
        /// other than `newcomer`; false when there is none.
        mutating func closeOneWithoutToken(sparing newcomer: UInt, limits: Limits) -> Bool {
            let candidates = entries.filter { key, entry in
                key != newcomer && !entry.closing && !entry.authenticated && (limits.tokenRequired || !entry.requesting)
            }
            var perAddress: [[UInt8]: Int] = [:]
            for entry in candidates.values { perAddress[entry.address, default: 0] += 1 }
            let victim = candidates.max { first, second in
                let (firstCount, secondCount) = (perAddress[first.value.address]!, perAddress[second.value.address]!)
                return firstCount != secondCount ? firstCount < secondCount : first.value.order > second.value.order
            }
            guard let (key, entry) = victim else { return false }
            close(key, socket: entry.socket)
            return true
        }

        mutating func close(_ key: UInt, socket: Int32) {
            entries[key]?.closing = true
            entries[key]?.deadline = nil
            shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    private let state = Condition(State())
    private let limits: Limits

    init(limits: Limits) {
        self.limits = limits
        Thread { [self] in watch() }.start()
    }

    /// A connection opened on `socket`: its first request's headers are due; a crowded server makes room.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        let address = Self.peerAddress(of: socket), key = Self.key(connection)
        state.withLock { state in
            state.openedCount += 1
            let now = ContinuousClock.now
            state.entries[key] = Entry(socket: socket, address: address, order: state.openedCount, requestStart: now,
                                       deadline: now + limits.headerTimeout)
            let open = state.entries.values.count { !$0.closing }
            if open > limits.crowdedAbove, !state.closeOneWithoutToken(sparing: key, limits: limits), open > limits.limit {
                state.close(key, socket: socket)
            }
        }
    }

    /// A request's headers arrived (`authenticated`: with the right token): the rest of it is due by
    /// the request deadline.
    func headersReceived(_ connection: OpaquePointer, authenticated: Bool) {
        let key = Self.key(connection)
        state.withLock { state in
            guard var entry = state.entries[key], !entry.closing else { return }
            entry.requesting = true
            entry.authenticated = entry.authenticated || authenticated
            entry.deadline = entry.requestStart + limits.requestTimeout
            state.entries[key] = entry
        }
    }

    /// A request has arrived whole: no deadline until it is answered.
    func requestReceived(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { state in
            guard state.entries[key]?.closing == false else { return }
            state.entries[key]?.deadline = nil
        }
    }

    /// A request was answered: the next request's headers are due (if the connection stays open).
    func answered(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { state in
            guard var entry = state.entries[key], !entry.closing else { return }
            let now = ContinuousClock.now
            entry.requesting = false
            entry.requestStart = now
            entry.deadline = now + limits.headerTimeout
            state.entries[key] = entry
        }
    }

    /// The connection is closing: its socket is no longer ours to shut down.
    func forget(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { $0.entries[key] = nil }
    }

    /// Ends the watching thread.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// The watching thread: shuts down each connection whose deadline passed, waking for the
    /// earliest deadline or a change.
    private func watch() {
        state.wait { state in
            guard !state.stopped else { return .done(()) }
            let now = ContinuousClock.now
            for (key, entry) in state.entries {
                if let deadline = entry.deadline, deadline <= now { state.close(key, socket: entry.socket) }
            }
            return .waitForChange(until: state.entries.values.compactMap(\.deadline).min())
        }
    }

    /// The peer address of `socket` without its port; empty when it cannot be read.
    private static func peerAddress(of socket: Int32) -> [UInt8] {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard status == 0 else { return [] }
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: &storage) { bytes in
            switch family {
            case AF_INET: Array(bytes[4..<8])  // sockaddr_in: family, port, then the address
            case AF_INET6: Array(bytes[8..<24])  // sockaddr_in6: family, port, flow info, then the address
            default: []
            }
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
