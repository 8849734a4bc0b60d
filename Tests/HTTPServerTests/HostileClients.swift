import CameraCore
import Foundation

/// Connections without the token that try to hold a server's connections: from each of `sources`
/// (addresses of the loopback network), `perSource` connections that all misbehave in one way
/// (`Kind`), each reopened as soon as the server closes it or answers it. One thread of their own
/// drives every socket (non-blocking, `poll(2)`), so hundreds of them cost the test one thread.
final class HostileClients: @unchecked Sendable {  // `connections`: its thread only; the rest in `state`
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A POST with `Content-Length: 60000` whose body comes a byte at a time.
        case slowBody
        /// A request line and headers that come a byte at a time and never end.
        case slowHeaders
        /// A connection that sends nothing.
        case idle

        var description: String { rawValue }

        /// What a connection sends at once after it opens.
        func opening(host: String) -> [UInt8] {
            switch self {
            case .slowBody: Array("POST /api/exposure HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n".utf8)
            case .slowHeaders: Array("GET /state HTTP/1.1\r\nHost: \(host)\r\nX-Padding: ".utf8)
            case .idle: []
            }
        }
    }

    /// What the clients did: connections opened (reopenings included) and answers the server sent them.
    struct Stats: Sendable {
        var opened = 0
        var answered = 0
    }

    private struct Connection {
        let source: String
        var socket: Int32 = -1
        var connected = false
        /// Whether it has been connected at least once.
        var wasConnected = false
        var nextTrickle = ContinuousClock.now
    }

    let kind: Kind
    private let port: UInt16
    private let trickleInterval: Duration
    private var connections: [Connection]
    /// What the test and the clients' thread share: the test waits on it for the clients to open and to end.
    private struct State {
        var stopping = false
        var finished = false
        var stats = Stats()
        var allOpened = false
    }

    private let state = Condition(State())

    init(kind: Kind, port: UInt16, sources: [String], perSource: Int, trickleInterval: Duration = .seconds(2)) {
        self.kind = kind
        self.port = port
        self.trickleInterval = trickleInterval
        connections = sources.flatMap { source in Array(repeating: Connection(source: source), count: perSource) }
    }

    /// Starts the clients; returns once every connection has been opened (and has sent its opening) once.
    func start() async {
        Thread { [self] in run() }.start()
        await onOwnThread { [state] in
            state.wait { $0.allOpened ? .done(()) : .waitForChange(until: nil) }
        }
    }

    /// Closes every connection and returns what the clients did.
    func stop() async -> Stats {
        await onOwnThread { [state] in
            state.withLock { $0.stopping = true }
            return state.wait { $0.finished ? .done($0.stats) : .waitForChange(until: nil) }
        }
    }

    private func run() {
        let host = "127.0.0.1:\(port)"
        let opening = kind.opening(host: host)
        for index in connections.indices { open(index, opening: opening) }
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let allConnected = connections.allSatisfy(\.wasConnected)
            let stop = state.withLock { state in
                if state.stopping || allConnected { state.allOpened = true }
                return state.stopping
            }
            if stop { break }

            var descriptors = connections.map { connection in
                pollfd(fd: connection.socket, events: Int16(connection.connected ? POLLIN : POLLOUT), revents: 0)
            }
            let now = ContinuousClock.now
            let nextTrickle = kind == .idle ? nil : connections.lazy.filter(\.connected).map(\.nextTrickle).min()
            let wait = nextTrickle.map { max(0, Int32((($0 - now) / .milliseconds(1)).rounded(.up))) } ?? 100
            _ = poll(&descriptors, nfds_t(descriptors.count), min(wait, 100))

            var answered = 0
            for index in connections.indices {
                let events = Int32(descriptors[index].revents)
                if connections[index].socket < 0 {
                    open(index, opening: opening)
                } else if !connections[index].connected {
                    guard events != 0 else { continue }
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(connections[index].socket, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 && events & Int32(POLLOUT) != 0 && send(index, opening) {
                        connections[index].connected = true
                        connections[index].wasConnected = true
                        connections[index].nextTrickle = .now + trickleInterval
                    } else {
                        reopen(index, opening: opening)
                        }
                } else if events != 0 {
                    // An answer (the server refused the request) or the end of the connection: try again.
                    let count = recv(connections[index].socket, &scratch, scratch.count, Int32(MSG_DONTWAIT))
                    if count > 0 { answered += 1 }
                    reopen(index, opening: opening)
                } else if kind != .idle, connections[index].nextTrickle <= .now {
                    // The slow client under test: one byte per interval.
                    connections[index].nextTrickle = .now + trickleInterval
                    if !send(index, Array("a".utf8)) {
                        reopen(index, opening: opening)
                        }
                }
            }
            state.withLock { $0.stats.answered += answered }
        }
        for connection in connections where connection.socket >= 0 { close(connection.socket) }
        state.withLock { $0.finished = true }
    }

    private func reopen(_ index: Int, opening: [UInt8]) {
        close(connections[index].socket)
        connections[index].socket = -1
        open(index, opening: opening)
    }

    /// Starts a non-blocking connect from the connection's source; a failed one is retried on the next round.
    private func open(_ index: Int, opening: [UInt8]) {
        connections[index].connected = false
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return }
        guard Self.withAddress(connections[index].source, port: 0, { Glibc.bind(socket, $0, $1) }) == 0,
              Self.withAddress("127.0.0.1", port: port, { Glibc.connect(socket, $0, $1) }) == 0 || errno == EINPROGRESS
        else {
            close(socket)
            return
        }
        connections[index].socket = socket
        state.withLock { $0.stats.opened += 1 }
    }

    private func send(_ index: Int, _ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        return Glibc.send(connections[index].socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }

    private static func withAddress(_ host: String, port: UInt16, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
