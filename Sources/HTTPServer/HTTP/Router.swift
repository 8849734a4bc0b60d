import CameraCore

/// Maps a method and a path to a handler. Patterns are literal segments and `:name` parameters
/// (`/library/:id`); an unknown path is a 404 and a known path with another method a 405 naming the
/// allowed ones, both as JSON errors.
public struct Router: Sendable {
    /// Answers one request; a thrown `HTTPError` becomes its JSON error response.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Substring]
        let handler: Handler

        func parameters(matching path: [Substring]) -> [String: String]? {
            guard path.count == segments.count else { return nil }
            var parameters: [String: String] = [:]
            for (pattern, value) in zip(segments, path) {
                if pattern.first == ":" {
                    guard !value.isEmpty else { return nil }
                    parameters[String(pattern.dropFirst())] = String(value)
                } else if pattern != value {
                    return nil
                }
            }
            return parameters
        }
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds `handler` for `method` on `pattern` (e.g. "/library/:id").
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, segments: Self.segments(pattern), handler: handler))
    }

    /// The route's answer for `request`, or the 404/405 JSON error, or the error the handler threw.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = Self.segments(request.path)
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.parameters(matching: path) else { continue }
            guard route.method == request.method else {
                allowed.append(route.method)
                continue
            }
            var request = request
            request.pathParameters = parameters
            do {
                return try await route.handler(request)
            } catch let error as HTTPError {
                return .error(error)
            } catch {
                return .error(Self.httpError(for: error))
            }
        }
        if allowed.isEmpty {
            return .error(.notFound("no route for \(request.path) — see the Viewfinder HTTP API for the routes"))
        }
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return .error(
            HTTPError(
                .methodNotAllowed, "\(request.method) is not allowed on \(request.path) — use \(list)",
                headers: ["Allow": list]))
    }

    /// The segments between the slashes, split on the bytes as `RequestTarget` checks them: a
    /// combining mark after "/" makes one Character of the two, but the slash still divides.
    private static func segments(_ path: String) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
    }

    /// Errors other than `HTTPError`: a value the device refuses is the client's mistake (400);
    /// anything else is the server's (500), with its description so it can be reported.
    private static func httpError(for error: any Error) -> HTTPError {
        if let error = error as? ValueOutOfRangeError {
            return .badRequest(error.description)
        }
        return HTTPError(.internalServerError, "\(error)")
    }
}
