import Foundation

/// One blocking HTTP/1.1 connection to a server on this machine, for measuring the viewfinder from
/// the outside as a browser sees it (`bench pipeline`, the end-to-end tests): requests answered
/// with a `Content-Length` body on a keep-alive connection, or an endless
/// `multipart/x-mixed-replace` body read part by part.
final class HTTPConnection {
    /// A response's status line and headers (names lower-cased), and its body when it has a length.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data
    }

    /// One part of a multipart stream: its headers (names lower-cased) and its bytes.
    struct Part {
        let headers: [String: String]
        let body: Data
    }

    private let socket: Int32
    private let host: String
    private var buffer = Data()
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to 127.0.0.1:`port`; reads and writes give up after `timeout` seconds.
    init(port: UInt16, timeout: Double = 10) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else {
            throw CLIError.runtime("cannot create a socket: \(String(cString: strerror(errno))) — check the process's file limit")
        }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw CLIError.runtime("cannot connect to 127.0.0.1:\(port): \(reason) — is the server running?")
        }
        self.socket = socket
        host = "127.0.0.1:\(port)"
    }

    deinit {
        Glibc.close(socket)
    }

    /// Sends a request and reads its response, whose body must have a `Content-Length` (the
    /// connection stays open for the next request).
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws -> Response {
        let head = try send(method, path, headers: headers, body: body)
        guard let length = head.headers["content-length"].flatMap(Int.init) else {
            throw CLIError.runtime("\(method) \(path): the response has no Content-Length — open it as a stream instead")
        }
        return Response(status: head.status, headers: head.headers, body: try read(count: length))
    }

    /// Sends a GET for an endless body and returns the response head; read the parts with `nextPart`.
    func openStream(_ path: String, headers: [String: String] = [:]) throws -> Response {
        try send("GET", path, headers: headers, body: Data())
    }

    /// The next part of a multipart stream (it needs a `Content-Length`, as the viewfinder's have).
    func nextPart() throws -> Part {
        var line = try readLine()
        while line.isEmpty { line = try readLine() }
        guard line.hasPrefix("--") else {
            throw CLIError.runtime("expected a multipart boundary, got \"\(line.prefix(80))\" — is this an MJPEG stream?")
        }
        let headers = try readHeaders()
        guard let length = headers["content-length"].flatMap(Int.init) else {
            throw CLIError.runtime("a stream part has no Content-Length (\(headers)) — read it with a client that finds the boundary")
        }
        return Part(headers: headers, body: try read(count: length))
    }

    private func send(_ method: String, _ path: String, headers: [String: String], body: Data) throws -> Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if method != "GET" || !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        try write(Data((text + "\r\n").utf8) + body)
        let status = try readLine()
        let fields = status.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/1."), let code = Int(fields[1]) else {
            throw CLIError.runtime("\(method) \(path): not an HTTP status line: \"\(status.prefix(80))\" — is it an HTTP server?")
        }
        return Response(status: code, headers: try readHeaders(), body: Data())
    }

    private func write(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else {
                throw CLIError.runtime("sending to \(host) failed: \(String(cString: strerror(errno))) — is the server still running?")
            }
            offset += sent
        }
    }

    /// Header lines up to the empty line, by lower-cased name.
    private func readHeaders() throws -> [String: String] {
        var headers: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { return headers }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstRange(of: Data("\r\n".utf8)) {
                let line = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                return line
            }
            try fill()
        }
    }

    private func read(count: Int) throws -> Data {
        while buffer.count < count { try fill() }
        let bytes = buffer.prefix(count)
        buffer.removeFirst(count)
        return Data(bytes)
    }

    /// Appends what the socket has (waiting for at least one byte).
    private func fill() throws {
        let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard received > 0 else {
            let reason = received == 0 ? "the server closed the connection" : String(cString: strerror(errno))
            throw CLIError.runtime("reading from \(host) failed: \(reason) — is the server still running?")
        }
        buffer.append(contentsOf: chunk[0..<received])
    }
}
