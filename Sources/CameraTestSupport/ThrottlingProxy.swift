import CameraCore
import Foundation
import Synchronization

/// A slow link for the live-push tests: a TCP proxy on 127.0.0.1 to a server on this machine
/// whose client→server direction carries at most `bytesPerSecond` (a token bucket holding a tenth
/// of a second's bytes); server→client is not limited. A cap of 0 stalls the link without closing
/// it, as a dead TCP link does. Connections it accepts get a small receive buffer, so that a sender
/// feels the cap at once instead of filling megabytes of socket buffer first. A connection to a
/// server that is down is closed straight away.
///
/// A thread accepts connections and two forward each one; `stop()` closes every socket and returns
/// once every thread has ended. Start one with `withThrottlingProxy`, which always stops it.
public final class ThrottlingProxy: Sendable {
    /// The port clients connect to.
    public let port: UInt16
    /// The server's port on 127.0.0.1.
    public let target: UInt16
    private let listener: Int32
    private let cap: Atomic<Int>
    private let forwarded = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)
    /// The proxy's threads, sockets and stop; a throttled thread waits on it until its bytes are
    /// due, the cap changes or the proxy stops, and `stop()` until every thread has ended.
    private let state = Condition(State())

    private struct State {
        var stopped = false
        /// The sockets of connections being forwarded.
        var sockets: Set<Int32> = []
        /// Threads started and not yet ended.
        var threads = 0
    }

    /// The receive buffer of accepted connections: the bytes a sender can have in flight before it
    /// feels the cap.
    static let receiveBuffer: Int32 = 32 * 1024

    /// Listens on a free port of 127.0.0.1 and forwards each connection to `target`.
    public init(to target: UInt16, bytesPerSecond: Int) throws {
        precondition(bytesPerSecond >= 0, "a ThrottlingProxy's cap is bytes per second, 0 or more; got \(bytesPerSecond)")
        (listener, port) = try LoopbackSocket.listen(receiveBuffer: Self.receiveBuffer)
        self.target = target
        cap = Atomic(bytesPerSecond)
        start { self.accept() }
    }

    /// Bytes forwarded client→server so far, over all connections.
    public var bytesForwarded: Int {
        forwarded.load(ordering: .relaxed)
    }

    /// Connections accepted so far (each client's reconnection is one more).
    public var connectionsAccepted: Int {
        accepted.load(ordering: .relaxed)
    }

    /// The client→server cap, bytes per second; 0 stalls the link. Changing it takes effect at once.
    public var bytesPerSecond: Int {
        get { cap.load(ordering: .relaxed) }
        set {
            precondition(newValue >= 0, "a ThrottlingProxy's cap is bytes per second, 0 or more; got \(newValue)")
            state.withLock { _ in cap.store(newValue, ordering: .relaxed) }
        }
    }

    /// Closes the listening socket and every connection, and returns once every thread has ended.
    public func stop() async {
        let first = shutDown()
        await onOwnThread { self.state.wait { $0.threads == 0 ? .done(()) : .waitForChange(until: nil) } }
        if first { close(listener) }
    }

    /// Marks the proxy stopped, shuts its sockets down and wakes throttled threads; false when it was already stopped.
    private func shutDown() -> Bool {
        state.withLock { state in
            let first = !state.stopped
            state.stopped = true
            if first { shutdown(listener, Int32(SHUT_RDWR)) }
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
            return first
        }
    }

    private func start(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.threads += 1 }
        Thread {
            work()
            self.state.withLock { $0.threads -= 1 }
        }.start()
    }

    private func accept() {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // stopped: the listener was shut down
            }
            accepted.wrappingAdd(1, ordering: .relaxed)
            guard let server = try? LoopbackSocket.connect(to: target) else {
                close(client)
                continue
            }
            guard register([client, server]) else { return }
            let ends = Atomic<Int>(0)
            let finish: @Sendable () -> Void = {
                // The second direction to end closes the connection.
                if ends.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 2 { self.unregister([client, server]) }
            }
            start { self.forward(from: client, to: server, throttled: true); finish() }
            start { self.forward(from: server, to: client, throttled: false); finish() }
        }
    }

    /// Copies `source` to `destination` until either closes or the proxy stops, then shuts both down
    /// so that the other direction ends too.
    private func forward(from source: Int32, to destination: Int32, throttled: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var bucket = TokenBucket()
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            if throttled, !bucket.take(count, proxy: self) { break }
            guard buffer.withUnsafeBytes({ LoopbackSocket.send(destination, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { break }
            if throttled { forwarded.wrappingAdd(count, ordering: .relaxed) }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    /// Adds a connection's sockets to those `stop()` shuts down; false (and closes them) once stopped.
    private func register(_ sockets: [Int32]) -> Bool {
        state.withLock { state in
            guard !state.stopped else {
                sockets.forEach { close($0) }
                return false
            }
            state.sockets.formUnion(sockets)
            return true
        }
    }

    private func unregister(_ sockets: [Int32]) {
        state.withLock { $0.sockets.subtract(sockets) }
        sockets.forEach { close($0) }
    }

    /// Bytes a throttled direction may send: refilled at the cap, holding a tenth of a second's
    /// bytes (at least one read's).
    private struct TokenBucket {
        private var tokens = 0.0
        private var refilled = ContinuousClock.now

        /// Waits until `count` bytes are due; false when the proxy stopped meanwhile.
        mutating func take(_ count: Int, proxy: ThrottlingProxy) -> Bool {
            proxy.state.wait { state in
                guard !state.stopped else { return .done(false) }
                let rate = Double(proxy.cap.load(ordering: .relaxed))
                let now = ContinuousClock.now
                tokens = min(max(rate / 10, Double(count)), tokens + rate * (now - refilled).seconds)
                refilled = now
                if tokens >= Double(count) {
                    tokens -= Double(count)
                    return .done(true)
                }
                return .waitForChange(until: now + .seconds(rate > 0 ? (Double(count) - tokens) / rate : 3600))
            }
        }
    }
}

/// Runs `body` with a `ThrottlingProxy` to `target` capped at `bytesPerSecond`, and stops it when
/// `body` returns or throws.
public func withThrottlingProxy<R>(to target: UInt16, bytesPerSecond: Int, _ body: (ThrottlingProxy) async throws -> R) async throws -> R {
    let proxy = try ThrottlingProxy(to: target, bytesPerSecond: bytesPerSecond)
    do {
        let result = try await body(proxy)
        await proxy.stop()
        return result
    } catch {
        await proxy.stop()
        throw error
    }
}
