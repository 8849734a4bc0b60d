internal import CMicroHTTPD
import CameraCore
import Foundation

/// The request pipeline behind the libmicrohttpd callbacks: request target → access policy → body
/// limit → router → response, plus the registry of open streams that `stop()` ends.
final class ConnectionHandler: Sendable {
    private let policy: AccessPolicy
    private let router: Router
    private let maxBodyBytes: Int
    /// Closes connections whose requests are late, and makes room when connections are crowded.
    let connectionGuard: ConnectionGuard
    private let streams = Locked(Streams())

    private struct Streams {
        var open: [ObjectIdentifier: ResponseStream] = [:]
        var stopping = false
    }

    init(policy: AccessPolicy, router: Router, maxBodyBytes: Int, guardLimits: ConnectionGuard.Limits) {
        self.policy = policy
        self.router = router
        self.maxBodyBytes = maxBodyBytes
        connectionGuard = ConnectionGuard(limits: guardLimits)
    }

    /// One call of the access handler. The first call comes once the headers are in: it judges the
    /// request target and the access policy, and answers at once a request that may not proceed
    /// (400, 401, 403; 413 when the declared body is over the limit), before any body is read, so
    /// that a client without the token cannot hold the connection by sending a body slowly. Upload
    /// calls collect the body up to the limit; the final call answers (queueing on the first call
    /// makes libmicrohttpd close keep-alive connections, which is what a refused request needs).
    func handle(
        _ connection: OpaquePointer, _ context: RequestContext, method: HTTPMethod,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if context.responded {
            uploadSize.pointee = 0
            return .YES
        }
        guard let head = context.head else {
            let headers = Self.values(of: connection, kind: .HEADER_KIND)
            let head: HTTPRequest
            let authenticated: Bool
            do {
                let target = try RequestTarget(context.rawTarget)
                let cookies = Self.values(of: connection, kind: .COOKIE_KIND).map { ($0.name, $0.value) }
                head = HTTPRequest(
                    method: method, path: target.path, query: target.query, headers: headers,
                    cookies: Dictionary(cookies) { first, second in "\(first), \(second)" })
                authenticated = try policy.admit(head)
            } catch {
                connectionGuard.headersReceived(connection, authenticated: false)
                return refuse(error, on: connection, context: context)
            }
            context.head = head
            connectionGuard.headersReceived(connection, authenticated: authenticated)
            let lengths = headers.values(for: "Content-Length")
            // libmicrohttpd reads the body by the first and ignores the others; a proxy in front that
            // reads another would see a different request boundary (request smuggling).
            guard lengths.count <= 1 else {
                let list = lengths.joined(separator: ", ")
                return refuse(.badRequest("the request has \(lengths.count) Content-Length headers (\(list)) — send exactly one"), on: connection, context: context)
            }
            if let declared = lengths.first.flatMap({ Int($0) }), declared > maxBodyBytes {
                return refuse(tooLarge(declared), on: connection, context: context)
            }
            return .YES
        }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            context.receivedBytes += count
            if context.receivedBytes > maxBodyBytes {
                // libmicrohttpd cannot answer in the middle of an upload: the rest is discarded and
                // the 413 goes out when the upload ends.
                context.body = Data()
            } else if let upload {
                context.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: count)
            }
            return .YES
        }
        connectionGuard.requestReceived(connection)
        if context.receivedBytes > maxBodyBytes {
            return queue(.error(tooLarge(context.receivedBytes)), on: connection, context: context)
        }
        var request = head
        request.body = context.body
        return queue(answer(request), on: connection, context: context)
    }

    /// Ends every open stream and every stream opened from now on (the server is stopping).
    func stopStreams() {
        let open = streams.withLock { streams in
            streams.stopping = true
            return Array(streams.open.values)
        }
        for stream in open { stream.close() }
    }

    private func tooLarge(_ size: Int) -> HTTPError {
        HTTPError(.payloadTooLarge, "request body of \(size) bytes is over the limit of \(maxBodyBytes) bytes — send less")
    }

    /// Answers a request refused when its headers arrived, and closes the connection after it.
    private func refuse(_ error: HTTPError, on connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        var response = HTTPResponse.error(error)
        response.headers["Connection"] = "close"
        return queue(response, on: connection, context: context)
    }

    /// The router's answer to an admitted request, with the policy's headers; waits on this
    /// connection thread (not a concurrency-pool thread) while the async handler runs.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let slot = ResponseSlot()
        let router = router
        Task { slot.fill(await router.respond(to: request)) }
        var response = slot.wait()
        response.headers.merge(policy.responseHeaders(for: request))
        return response
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        context.responded = true
        guard let mhdResponse = makeResponse(response.body) else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        var headers = response.headers
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        // No other site may frame any answer (clickjacking the page's controls).
        headers["Content-Security-Policy"] = headers["Content-Security-Policy"].map { "\($0); frame-ancestors 'none'" } ?? "frame-ancestors 'none'"
        for (name, value) in headers {
            guard MHD_add_response_header(mhdResponse, name, value) == .YES else { return .NO }
        }
        return MHD_queue_response(connection, UInt32(response.status.rawValue), mhdResponse)
    }

    private func makeResponse(_ body: HTTPResponse.Body) -> OpaquePointer? {
        switch body {
        case .bytes(let data):
            return data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            register(stream)
            let context = Unmanaged.passRetained(stream).toOpaque()
            guard let response = MHD_create_response_from_callback(
                cmhd_size_unknown, 32 * 1024, Self.readCallback, context, Self.freeCallback)
            else {
                Unmanaged<ResponseStream>.fromOpaque(context).release()
                stream.close()
                return nil
            }
            // An endless body: HTTP/1.0-style (no chunking, the connection closes at the end), the
            // form MJPEG and SSE clients (browsers, ffmpeg, VLC) all read.
            _ = cmhd_set_response_flags(response, .RF_HTTP_1_0_COMPATIBLE_STRICT)
            return response
        case .file(let slice):
            let context = Unmanaged.passRetained(slice).toOpaque()
            guard let response = MHD_create_response_from_callback(
                UInt64(slice.range.length), 64 * 1024, Self.fileReadCallback, context, Self.fileFreeCallback)
            else {
                Unmanaged<FileSlice>.fromOpaque(context).release()
                return nil
            }
            return response
        }
    }

    private func register(_ stream: ResponseStream) {
        let id = ObjectIdentifier(stream)
        let stopping = streams.withLock { streams in
            if !streams.stopping { streams.open[id] = stream }
            return streams.stopping
        }
        if stopping {
            stream.close()
            return
        }
        stream.onClose { [weak self] in
            self?.streams.withLock { _ = $0.open.removeValue(forKey: id) }
        }
    }

    /// The request's headers or cookies (`kind`), in the order they came.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> HTTPHeaders {
        var values = HTTPHeaders()
        withUnsafeMutablePointer(to: &values) { pointer in
            _ = MHD_get_connection_values(connection, kind, collectValue, pointer)
        }
        return values
    }
}

/// The answer of an async handler, handed from the concurrency pool to the waiting connection thread.
private final class ResponseSlot: Sendable {
    private let response = Condition<HTTPResponse?>(nil)

    func fill(_ value: HTTPResponse) {
        response.withLock { $0 = value }
    }

    func wait() -> HTTPResponse {
        response.wait { response in response.map { .done($0) } ?? .waitForChange(until: nil) }
    }
}
