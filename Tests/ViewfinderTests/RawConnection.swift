import Foundation

/// A test client on a plain TCP socket, so that tests see exactly what goes over the wire: requests
/// are sent byte for byte (no client-side path normalisation), and two requests can be sent on one
/// connection to check keep-alive.
///
/// Reads block. Async tests use the `async` overloads, which block a thread of their own rather than
/// the concurrency pool that the server's handlers need; threads that only read call the blocking ones.
final class RawConnection: @unchecked Sendable {  // used by one test or thread at a time, never concurrently
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The errno of a failed system call.
        var errorNumber: Int32 = 0
    }

    struct Response {
        let status: Int
        /// Header values by lower-cased name.
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body's `error` field, for JSON error answers.
        var errorMessage: String? {
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
        }
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    init(port: UInt16, timeout: Double = 10) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close()
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(socket)
    }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
                sent += count
            }
        }
    }

    /// Sends a request with `Host`, `Content-Length` for a body, and `headers`.
    func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1" }
        if let body { headers["Content-Length"] = String(body.count) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        try send(Data((head + "\r\n").utf8) + (body ?? Data()))
        return try readResponse()
    }

    /// Reads one response: the head, then a body delimited by Content-Length or chunked encoding.
    func readResponse() throws -> Response {
        let (status, headers) = try readHead()
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            return Response(status: status, headers: headers, body: try read(count: length))
        }
        guard headers["transfer-encoding"]?.lowercased() == "chunked" else {
            return Response(status: status, headers: headers, body: try readToEnd())
        }
        var body = Data()
        while true {
            let sizeLine = try readLine()
            guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else {
                throw Failure(description: "bad chunk size line \"\(sizeLine)\"")
            }
            if size == 0 {
                while try !readLine().isEmpty {}
                return Response(status: status, headers: headers, body: body)
            }
            body += try read(count: size)
            _ = try readLine()
        }
    }

    /// Reads a status line and headers.
    func readHead() throws -> (status: Int, headers: [String: String]) {
        let statusLine = try readLine()
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), let status = Int(fields[1]) else {
            throw Failure(description: "bad status line \"\(statusLine)\"")
        }
        var headers: [String: String] = [:]
        while case let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header \"\(line)\"") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        return (status, headers)
    }

    /// Reads a line ending in CRLF (or LF), without the line break.
    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = buffer[..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw Failure(description: "connection closed in the middle of a line") }
        }
    }

    func read(count: Int) throws -> Data {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }

    func readToEnd() throws -> Data {
        while try fill() {}
        defer { buffer.removeAll() }
        return Data(buffer)
    }

    /// Whether the server closed the connection: a read returns end of file, or the connection was
    /// reset (a server that closes with unread request bytes resets it), within the timeout.
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        do {
            return try !fill()
        } catch {
            return (error as? Failure)?.errorNumber == ECONNRESET
        }
    }

    /// Reads what is available into the buffer; false at end of file.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(socket, &chunk, chunk.count, 0)
        if count < 0 { throw Failure(description: "recv: \(String(cString: strerror(errno)))", errorNumber: errno) }
        buffer += chunk[..<count]
        return count > 0
    }
}

extension RawConnection {
    func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Response {
        try await onThread { try self.request(method, target, headers: headers, body: body) }
    }

    func readResponse() async throws -> Response {
        try await onThread { try self.readResponse() }
    }

    func readHead() async throws -> (status: Int, headers: [String: String]) {
        try await onThread { try self.readHead() }
    }

    func readLine() async throws -> String {
        try await onThread { try self.readLine() }
    }

    func readToEnd() async throws -> Data {
        try await onThread { try self.readToEnd() }
    }

    func isClosedByServer() async throws -> Bool {
        try await onThread { self.isClosedByServer() }
    }
}
