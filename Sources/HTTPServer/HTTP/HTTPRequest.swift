import Foundation

/// One request as a handler sees it: a method, a decoded and validated path, query parameters,
/// headers, cookies and the body (bounded by the server's body limit).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The percent-decoded path; never contains `..` or `.` segments or NUL (the server refuses those).
    public var path: String
    public var query: [String: String]
    /// The header fields in the order the client sent them.
    public var headers: HTTPHeaders
    public var cookies: [String: String]
    public var body: Data
    /// Values taken from the path by the route pattern, e.g. `id` for `/library/:id`.
    public var pathParameters: [String: String] = [:]

    public init(
        method: HTTPMethod, path: String, query: [String: String] = [:], headers: HTTPHeaders = [:],
        cookies: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
    }

    /// The value of the header `name` (any case; repeated fields joined with ", "), if present.
    public func header(_ name: String) -> String? {
        headers[name]
    }
}
