import Foundation

/// A failed socket call, send or read; the message says what to check.
public struct SocketFailure: Error, CustomStringConvertible {
    public let description: String
    /// The errno of a failed system call, 0 otherwise.
    public var errorNumber: Int32 = 0

    public init(_ description: String, errorNumber: Int32 = 0) {
        self.description = description
        self.errorNumber = errorNumber
    }
}

/// IPv4 TCP sockets on this machine for the tests' clients, servers and proxies.
public enum LoopbackSocket {
    /// A new TCP socket whose reads and writes give up after `timeout` seconds (never, when nil).
    static func make(timeout: Double? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else {
            throw SocketFailure("cannot create a socket: \(String(cString: strerror(errno))) — check the process's file limit", errorNumber: errno)
        }
        if let timeout {
            var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        }
        return socket
    }

    /// A socket connected to `address`:`port`, closed again if the connection fails.
    static func connect(to port: UInt16, address: String = "127.0.0.1", timeout: Double? = nil) throws -> Int32 {
        let socket = try make(timeout: timeout)
        do {
            try call("connect to \(address):\(port)", on: try socketAddress(address, port: port), remedy: "is the server running?") {
                Glibc.connect(socket, $0, $1)
            }
        } catch {
            Glibc.close(socket)
            throw error
        }
        return socket
    }

    /// A socket listening on 127.0.0.1 at a port the kernel picks, and that port. `receiveBuffer`
    /// (bytes) caps the receive buffer of the connections it accepts.
    static func listen(receiveBuffer: Int32? = nil) throws -> (socket: Int32, port: UInt16) {
        let socket = try make()
        do {
            var reuse: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            if var receiveBuffer {
                setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
            }
            try call("bind to 127.0.0.1", on: try socketAddress("127.0.0.1", port: 0)) { Glibc.bind(socket, $0, $1) }
            guard Glibc.listen(socket, 16) == 0 else {
                throw SocketFailure("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))", errorNumber: errno)
            }
            return (socket, try port(of: socket))
        } catch {
            Glibc.close(socket)
            throw error
        }
    }

    /// A port on 127.0.0.1 that no one listens on now, for a server that binds it itself; another
    /// process may take it first, so such a server retries on EADDRINUSE.
    public static func freePort() throws -> UInt16 {
        let (socket, port) = try listen()
        Glibc.close(socket)
        return port
    }

    /// Sends all of `bytes`; false (errno says why) when the connection fails first.
    static func send(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// The local port `socket` is bound to.
    static func port(of socket: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard status == 0 else { throw SocketFailure("getsockname failed: \(String(cString: strerror(errno)))", errorNumber: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    static func socketAddress(_ address: String, port: UInt16) throws -> sockaddr_in {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SocketFailure("\(address) is not an IPv4 address — give one such as 127.0.0.1")
        }
        return socketAddress
    }

    /// Runs `call` (bind or connect) on `address`; throws naming `what` when it fails.
    static func call(
        _ what: String, on address: sockaddr_in, remedy: String = "check the address",
        _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws {
        var address = address
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw SocketFailure("cannot \(what): \(String(cString: strerror(errno))) — \(remedy)", errorNumber: errno) }
    }
}
