import Foundation

/// Where the server listens: a host (an IP address or a name such as `localhost`) and a port,
/// resolved once. Port 0 asks the system for a free port; the server reports the one it got.
public struct ListenAddress: Sendable, CustomStringConvertible {
    public let host: String
    public let port: UInt16
    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public let isLoopback: Bool
    /// Whether it is the wildcard address (0.0.0.0 or ::), which every interface's addresses reach.
    public let isWildcard: Bool
    private let storage: [UInt8]

    /// Resolves `host`; throws naming the host when it is not an address of this machine's resolver.
    public init(host: String = "127.0.0.1", port: UInt16 = 8080) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0, let first = list, let address = first.pointee.ai_addr else {
            throw HTTPServerError("cannot listen on \(host): \(String(cString: gai_strerror(status))) — give an IP address such as 127.0.0.1 or 0.0.0.0")
        }
        self.host = host
        self.port = port
        self.storage = Array(UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        self.isLoopback = Self.isLoopback(storage)
        self.isWildcard = Self.isWildcard(storage)
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT` (the `--listen` flag).
    public init(parsing text: String) throws(HTTPServerError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") {
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            throw HTTPServerError("listen address \"\(text)\" is not HOST:PORT — e.g. 127.0.0.1:8080 or [::1]:8080")
        }
        guard let port = UInt16(portText), !host.isEmpty else {
            throw HTTPServerError("listen address \"\(text)\" is not HOST:PORT with a port 0…65535 — e.g. 127.0.0.1:8080")
        }
        try self.init(host: String(host), port: port)
    }

    /// Whether the address is IPv6, which the daemon must be told.
    var isIPv6: Bool {
        withSocketAddress { $0.pointee.sa_family == sa_family_t(AF_INET6) }
    }

    /// Calls `body` with the resolved socket address.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        storage.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether a host name from a request (`Host` header, without port) names this machine's
    /// loopback interface: `localhost`, 127.0.0.0/8 or ::1.
    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, name, &v6) == 1 && isLoopback(v6)
    }

    private static func isLoopback(_ storage: [UInt8]) -> Bool {
        storage.withUnsafeBytes { bytes in
            let family = bytes.load(as: sockaddr.self).sa_family
            if family == sa_family_t(AF_INET) {
                return UInt32(bigEndian: bytes.load(as: sockaddr_in.self).sin_addr.s_addr) >> 24 == 127
            }
            return family == sa_family_t(AF_INET6) && isLoopback(bytes.load(as: sockaddr_in6.self).sin6_addr)
        }
    }

    private static func isWildcard(_ storage: [UInt8]) -> Bool {
        storage.withUnsafeBytes { bytes in
            switch Int32(bytes.load(as: sockaddr.self).sa_family) {
            case AF_INET: bytes.load(as: sockaddr_in.self).sin_addr.s_addr == 0
            case AF_INET6: withUnsafeBytes(of: bytes.load(as: sockaddr_in6.self).sin6_addr) { $0.allSatisfy { $0 == 0 } }
            default: false
            }
        }
    }

    /// ::1, or an IPv4-mapped 127.x.x.x.
    private static func isLoopback(_ address: in6_addr) -> Bool {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        if Array(bytes[0..<12]) == mappedPrefix { return bytes[12] == 127 }
        return bytes == Array(repeating: 0, count: 15) + [1]
    }
}
