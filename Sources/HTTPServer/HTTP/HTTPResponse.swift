import Foundation

/// What a handler answers: a status, headers, and either bytes, a stream of parts that the
/// server writes to the client as they arrive (MJPEG, Server-Sent Events), or part of a file.
public struct HTTPResponse: Sendable {
    /// A body sent at once, fed part by part from a `ResponseStream`, or read from a file as it is sent.
    public enum Body: Sendable {
        case bytes(Data)
        case stream(ResponseStream)
        case file(FileSlice)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `bytes` with `contentType`.
    public init(status: HTTPStatus = .ok, contentType: String, bytes: Data) {
        self.init(status: status, headers: ["Content-Type": contentType], body: .bytes(bytes))
    }

    /// An endless body fed from `stream`; caches are told not to keep it.
    public init(contentType: String, stream: ResponseStream) {
        self.init(headers: ["Content-Type": contentType, "Cache-Control": "no-store"], body: .stream(stream))
    }

    /// A JSON object already encoded; caches are told not to keep it (it is live state).
    public static func json(_ data: Data, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(data))
    }

    /// `value` encoded as JSON.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return json(try encoder.encode(value), status: status)
    }

    /// The JSON error answer `{"error": message}` for `error`.
    public static func error(_ error: HTTPError) -> HTTPResponse {
        let body = (try? JSONEncoder().encode(["error": error.message])) ?? Data(#"{"error":"error"}"#.utf8)
        var response = json(body, status: error.status)
        response.headers.merge(error.headers)
        return response
    }
}
