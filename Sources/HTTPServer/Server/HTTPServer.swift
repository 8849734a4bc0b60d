internal import CMicroHTTPD
import CameraCore
import Foundation

/// An HTTP/1.1 server on libmicrohttpd: it listens on `address`, applies the access policy to every
/// request, and answers through the router — with bytes, or with endless streams (MJPEG, SSE).
///
/// Threading: one thread per connection (libmicrohttpd's `MHD_USE_THREAD_PER_CONNECTION`), bounded
/// by `Configuration.connectionLimit`, and by `perAddressConnectionLimit` for each client address so
/// that no one client can take every connection. A request without the token is refused as soon as
/// its headers arrive, before its body is read; a connection must send a request's headers within
/// `headerTimeout` and the whole request within `requestTimeout`; and when more than three quarters
/// of the connections are open, each new one closes a connection that has not shown the token
/// (`ConnectionGuard`), so that clients without it, from however many addresses, cannot keep one
/// with it out. A stream's content reader blocks its own connection's thread
/// until the next part arrives, so a slow or idle stream never delays another client, and no
/// suspend/resume bookkeeping can race with a client going away. Handlers are `async`: the
/// connection thread waits for them while they run on the Swift concurrency pool, so a slow handler
/// delays only its own client (code that blocks the pool's threads stalls every handler).
/// ARCHITECTURE.md has the measurements behind this choice.
///
/// `stop()` (or releasing the server) ends every stream, closes the listening socket and waits for
/// the connection threads.
public final class HTTPServer: Sendable {
    /// The limits and the address of a server.
    public struct Configuration: Sendable {
        public var address: ListenAddress
        /// Connections open at once, streams and idle keep-alive connections included; more are refused.
        /// libmicrohttpd is given twice as many, so that connections the server has shut down but
        /// whose threads have not closed them yet (a flood of reconnecting clients) do not refuse a
        /// newcomer; `ConnectionGuard` holds the open ones to this limit.
        public var connectionLimit: Int
        /// Connections open at once from one client address (MHD_OPTION_PER_IP_CONNECTION_LIMIT; at
        /// most `connectionLimit`): below it, so that one client holding all it may leaves room for others.
        public var perAddressConnectionLimit: Int
        /// The largest request body accepted; a larger one is answered 413.
        public var maxBodyBytes: Int
        /// An idle connection (nothing sent or received) is closed after this long.
        public var idleTimeout: Duration
        /// A connection that has not sent a request's complete headers this long after it opened, or
        /// after its previous answer, is closed — however slowly it keeps sending.
        public var headerTimeout: Duration
        /// The same for the whole request, body included (at least `headerTimeout`).
        public var requestTimeout: Duration

        public init(
            address: ListenAddress, connectionLimit: Int = 64, perAddressConnectionLimit: Int = 32, maxBodyBytes: Int = 64 * 1024,
            idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(10)
        ) {
            self.address = address
            self.connectionLimit = connectionLimit
            self.perAddressConnectionLimit = perAddressConnectionLimit
            self.maxBodyBytes = maxBodyBytes
            self.idleTimeout = idleTimeout
            self.headerTimeout = headerTimeout
            self.requestTimeout = requestTimeout
        }

        /// Open connections above which each new one closes a connection that has not shown the
        /// token: three quarters of the limit, so that the quarter left covers the connections
        /// still closing and the token holders' own.
        var crowdedAbove: Int { connectionLimit - connectionLimit / 4 }
    }

    public let configuration: Configuration
    public let policy: AccessPolicy
    /// The port listened on: the configured one, or the one the system picked for port 0.
    public let port: UInt16
    private let handler: ConnectionHandler
    private let daemon: Locked<OpaquePointer?>

    /// Starts listening at once; throws naming the address when it cannot (port in use, no permission).
    public init(configuration: Configuration, policy: AccessPolicy, router: Router) throws(HTTPServerError) {
        let address = configuration.address
        guard configuration.connectionLimit > 0, configuration.maxBodyBytes >= 0 else {
            throw HTTPServerError("connection limit \(configuration.connectionLimit) and body limit \(configuration.maxBodyBytes) must be positive")
        }
        guard configuration.perAddressConnectionLimit > 0 else {
            throw HTTPServerError("per-address connection limit \(configuration.perAddressConnectionLimit) must be positive")
        }
        guard configuration.headerTimeout > .zero else {
            throw HTTPServerError("header timeout \(configuration.headerTimeout) must be positive")
        }
        let limits = ConnectionGuard.Limits(
            headerTimeout: configuration.headerTimeout, requestTimeout: max(configuration.requestTimeout, configuration.headerTimeout),
            crowdedAbove: configuration.crowdedAbove, limit: configuration.connectionLimit, tokenRequired: policy.token != nil)
        let handler = ConnectionHandler(policy: policy, router: router, maxBodyBytes: configuration.maxBodyBytes, guardLimits: limits)
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_AUTO.rawValue | MHD_USE_ITC.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(handler).toOpaque()
        let started = address.withSocketAddress { socketAddress in
            cmhd_start_daemon(
                flags, socketAddress, UInt32(2 * configuration.connectionLimit), UInt32(min(configuration.perAddressConnectionLimit, configuration.connectionLimit)),
                UInt32(max(1, configuration.idleTimeout.components.seconds)), 64 * 1024, 512 * 1024,
                ConnectionHandler.accessCallback, context, ConnectionHandler.uriCallback, context,
                ConnectionHandler.completedCallback, context, ConnectionHandler.connectionCallback, context)
        }
        guard let started else {
            let reason = String(cString: strerror(errno))
            handler.connectionGuard.stop()
            throw HTTPServerError("cannot listen on \(address): \(reason) — choose another port (0 picks a free one) or address")
        }
        self.configuration = configuration
        self.policy = policy
        self.handler = handler
        self.port = cmhd_bind_port(started)
        self.daemon = Locked(started)
    }

    deinit {
        stop()
    }

    /// The base URLs to open the server at, e.g. `http://192.168.1.20:8080/`: the listen address, or
    /// for a wildcard one (0.0.0.0, ::) each address of this machine's interfaces of its family that
    /// another machine can open — loopback and link-local ones only when there is no other.
    public var urls: [String] {
        Self.reachableHosts(of: configuration.address).map { host in "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
    }

    /// The first of `urls`: the one to print.
    public var url: String { urls[0] }

    private static func reachableHosts(of address: ListenAddress) -> [String] {
        guard address.isWildcard else { return [address.host] }
        let family = InterfaceAddress.all().filter { $0.isIPv6 == address.isIPv6 }
        let reachable = family.filter { !$0.isLoopback && !$0.isLinkLocal }
        let hosts = (reachable.isEmpty ? family.filter(\.isLoopback) : reachable).map(\.host)
        return hosts.isEmpty ? [address.isIPv6 ? "::1" : "127.0.0.1"] : hosts
    }

    /// Open client connections (0 once stopped).
    public var connectionCount: Int {
        daemon.withLock { daemon in daemon.map { Int(cmhd_current_connections($0)) } ?? 0 }
    }

    /// Stops accepting connections, ends every open stream, and returns when all connection threads
    /// have finished. Requests being handled finish first. Calling it again does nothing.
    public func stop() {
        let running = daemon.withLock { daemon in
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        let listener = MHD_quiesce_daemon(running)
        handler.stopStreams()
        MHD_stop_daemon(running)
        handler.connectionGuard.stop()
        if listener >= 0 { close(listener) }
    }
}
