/// A request the server refuses, with the status and a message for the client. Handlers throw it;
/// the server answers with `status` and the JSON body `{"error": message}`.
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    public let status: HTTPStatus
    public let message: String
    /// Extra response headers (e.g. `Allow` for 405, `WWW-Authenticate` for 401).
    public let headers: HTTPHeaders

    public init(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public static func badRequest(_ message: String) -> HTTPError {
        HTTPError(.badRequest, message)
    }

    public static func notFound(_ message: String) -> HTTPError {
        HTTPError(.notFound, message)
    }

    public static func forbidden(_ message: String) -> HTTPError {
        HTTPError(.forbidden, message)
    }

    /// A request that cannot be carried out in the resource's present state (e.g. a second take
    /// while one records), saying what to do first.
    public static func conflict(_ message: String) -> HTTPError {
        HTTPError(.conflict, message)
    }

    public var description: String { "HTTP \(status): \(message)" }
}
