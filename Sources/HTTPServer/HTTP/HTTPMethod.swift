/// An HTTP request method. A raw-value struct rather than an enum, since a request may carry any
/// token as its method: routes match the named ones, anything else is a 405 or 404 like them.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as sent, e.g. `GET` (methods are case-sensitive).
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether a request with this method may change state: anything but GET, HEAD and OPTIONS.
    public var isStateChanging: Bool {
        ![.get, .head, .options].contains(self)
    }

    public var description: String { rawValue }
}
