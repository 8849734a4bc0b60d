import CameraCore
import Foundation

/// One blocking HTTP/1.1 connection on a plain TCP socket to a server on this machine, for tests
/// and the pipeline benchmark: requests go over the wire byte for byte (no client-side path
/// normalisation), two requests can share the connection to check keep-alive, and an endless
/// `multipart/x-mixed-replace` body can be read part by part.
///
/// Reads block (up to the timeout). Async callers use the `async` overloads, which block a thread of
/// their own rather than the concurrency pool that a server's handlers need.
public final class RawHTTPConnection: @unchecked Sendable {  // used by one caller at a time, never concurrently
    /// A failed connection, send or read; the message says what to check.
    public typealias Failure = SocketFailure

    /// A response's status, headers (names lower-cased) and body.
    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body's `error` field, for JSON error answers.
        public var errorMessage: String? {
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
        }
    }

    /// One part of a multipart stream: its headers (names lower-cased) and its bytes.
    public struct Part: Sendable {
        public let headers: [String: String]
        public let body: Data
    }

    /// `127.0.0.1:PORT`, the `Host` a browser on this machine sends (requests use it unless given another).
    public let host: String
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Connects to `address`:`port` (IPv4), from `source` when given (e.g. 127.0.0.2, another address
    /// of the loopback network); reads and writes give up after `timeout` seconds.
    public init(port: UInt16, address: String = "127.0.0.1", from source: String? = nil, timeout: Double = 10) throws {
        socket = try LoopbackSocket.make(timeout: timeout)
        host = "\(address):\(port)"
        do {
            let socket = socket
            if let source {
                try LoopbackSocket.call("bind to \(source)", on: try LoopbackSocket.socketAddress(source, port: 0)) { Glibc.bind(socket, $0, $1) }
            }
            try LoopbackSocket.call("connect to \(host)", on: try LoopbackSocket.socketAddress(address, port: port), remedy: "is the server running?") {
                Glibc.connect(socket, $0, $1)
            }
        } catch {
            Glibc.close(socket)
            throw error
        }
    }

    deinit {
        close()
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(socket)
    }

    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    public func send(_ data: Data) throws {
        guard data.withUnsafeBytes({ LoopbackSocket.send(socket, $0) }) else {
            throw Failure("sending to \(host) failed: \(String(cString: strerror(errno))) — is the server still running?", errorNumber: errno)
        }
    }

    /// Sends a request and reads its response. `Host` is this connection's unless `headers` has
    /// one; `Content-Length` is added for a body, and for methods other than GET and HEAD.
    public func request(_ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil) throws -> Response {
        try sendRequest(method, target, headers: headers, body: body)
        return try readResponse()
    }

    /// Sends a GET for an endless body and returns the response head; read the parts with `nextPart`.
    public func openStream(_ target: String, headers: [String: String] = [:]) throws -> Response {
        try sendRequest("GET", target, headers: headers, body: nil)
        let head = try readHead()
        return Response(status: head.status, headers: head.headers, body: Data())
    }

    /// The next part of a multipart stream (it needs a `Content-Length`, as the viewfinder's have).
    public func nextPart() throws -> Part {
        var line = try readLine()
        while line.isEmpty { line = try readLine() }
        guard line.hasPrefix("--") else {
            throw Failure("expected a multipart boundary, got \"\(line.prefix(80))\" — is this an MJPEG stream?")
        }
        let headers = try readHeaders()
        guard let length = headers["content-length"].flatMap({ Int($0) }) else {
            throw Failure("a stream part has no Content-Length (\(headers)) — read it with a client that finds the boundary")
        }
        return Part(headers: headers, body: try read(count: length))
    }

    /// Reads one response: the head, then a body delimited by Content-Length, chunked encoding, or
    /// the end of the connection.
    public func readResponse() throws -> Response {
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
            guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { throw Failure("bad chunk size line \"\(sizeLine)\"") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return Response(status: status, headers: headers, body: body)
            }
            body += try read(count: size)
            _ = try readLine()
        }
    }

    /// Reads a status line and headers.
    public func readHead() throws -> (status: Int, headers: [String: String]) {
        let statusLine = try readLine()
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), let status = Int(fields[1]) else {
            throw Failure("not an HTTP status line: \"\(statusLine.prefix(80))\" — is it an HTTP server?")
        }
        return (status, try readHeaders())
    }

    /// Reads a line ending in CRLF (or LF), without the line break.
    public func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = buffer[..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw Failure("reading from \(host) failed: the server closed the connection in the middle of a line") }
        }
    }

    public func read(count: Int) throws -> Data {
        while buffer.count < count {
            guard try fill() else { throw Failure("reading from \(host) failed: the connection closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }

    public func readToEnd() throws -> Data {
        while try fill() {}
        defer { buffer.removeAll() }
        return Data(buffer)
    }

    /// Whether the server closed the connection: a read returns end of file, or the connection was
    /// reset (a server that closes with unread request bytes resets it), within the timeout.
    public func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        do {
            return try !fill()
        } catch {
            return (error as? Failure)?.errorNumber == ECONNRESET
        }
    }

    /// Whether the server has closed the connection while it was idle (nothing unread): what a
    /// keep-alive client checks before reusing it. Does not wait.
    public func closedWhileIdle() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func sendRequest(_ method: String, _ target: String, headers: [String: String], body: Data?) throws {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        var headers = headers
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { headers["Host"] = host }
        if body != nil || !["GET", "HEAD"].contains(method) { headers["Content-Length"] = String(body?.count ?? 0) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        try send(Data((head + "\r\n").utf8) + (body ?? Data()))
    }

    /// Header lines up to the empty line, by lower-cased name.
    private func readHeaders() throws -> [String: String] {
        var headers: [String: String] = [:]
        while case let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure("bad header line \"\(line.prefix(80))\"") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    /// Reads what is available into the buffer; false at end of file.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(socket, &chunk, chunk.count, 0)
        if count < 0 {
            throw Failure("reading from \(host) failed: \(String(cString: strerror(errno))) — is the server still running?", errorNumber: errno)
        }
        buffer += chunk[..<count]
        return count > 0
    }
}

extension RawHTTPConnection {
    public func request(_ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil) async throws -> Response {
        try await onOwnThread { try self.request(method, target, headers: headers, body: body) }
    }

    public func readResponse() async throws -> Response {
        try await onOwnThread { try self.readResponse() }
    }

    public func readHead() async throws -> (status: Int, headers: [String: String]) {
        try await onOwnThread { try self.readHead() }
    }

    public func readLine() async throws -> String {
        try await onOwnThread { try self.readLine() }
    }

    public func readToEnd() async throws -> Data {
        try await onOwnThread { try self.readToEnd() }
    }

    public func isClosedByServer() async throws -> Bool {
        await onOwnThread { self.isClosedByServer() }
    }
}
