import Foundation

/// One request as a handler sees it: a method, a decoded and validated path, query parameters,
/// headers (names lower-cased), cookies and the body (bounded by the server's body limit).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The percent-decoded path; never contains `..` or `.` segments or NUL (the server refuses those).
    public var path: String
    public var query: [String: String]
    /// Header values by lower-cased name; repeated headers joined with ", " as HTTP allows.
    public var headers: [String: String]
    public var cookies: [String: String]
    public var body: Data
    /// Values taken from the path by the route pattern, e.g. `id` for `/library/:id`.
    public var pathParameters: [String: String] = [:]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        cookies: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, second in "\(first), \(second)" }
        self.cookies = cookies
        self.body = body
    }

    /// The value of the header `name` (any case), if present.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// True for methods that change state (anything but GET, HEAD and OPTIONS).
    public var isStateChanging: Bool {
        !["GET", "HEAD", "OPTIONS"].contains(method)
    }
}
