import Foundation

/// Who may do what, applied by the server to every request before routing:
///
/// - The `Host` must name this listener (`ListenerHosts`: loopback names on a loopback listener;
///   also the machine's name and addresses on another), so that a web page cannot reach the server
///   by pointing a domain of its own at it (DNS rebinding): 403 otherwise. A request without `Host`
///   (HTTP/1.0; browsers always send it) passes.
/// - State-changing requests (POST, …) from another site are refused (403): `Sec-Fetch-Site` must be
///   `same-origin` or `none` when present, and `Origin`, when present, must name the `Host` asked for.
/// - With a token (always on a listener other machines can reach, see `forListening`) every request
///   but the page itself (`GET /`, which holds no data) needs `Authorization: Bearer TOKEN` or the
///   cookie that the server sets when the page is opened with `?token=TOKEN`. Missing: 401; wrong: 403.
public struct AccessPolicy: Sendable {
    /// The cookie set from `?token=`: HttpOnly (scripts cannot read it), SameSite=Strict (other
    /// sites' requests do not carry it).
    public static let cookieName = "camerasun_token"

    public let token: AccessToken?
    private let hosts: ListenerHosts

    /// The policy for a server listening on `address`, with `token` (nil: none needed).
    public init(token: AccessToken?, address: ListenAddress) {
        self.token = token
        hosts = ListenerHosts(address: address)
    }

    /// The policy for a server on `address`: `token` when given; otherwise a generated one when the
    /// address is reachable from other machines (not loopback), else none.
    public static func forListening(on address: ListenAddress, token: AccessToken?) -> AccessPolicy {
        AccessPolicy(token: token ?? (address.isLoopback ? nil : AccessToken.generate()), address: address)
    }

    /// Throws the 401/403 `HTTPError` for a request that may not proceed; otherwise returns whether
    /// the request carried the right token (always false when none is needed). It looks only at the
    /// method, target and headers, so the server judges a request before reading its body.
    @discardableResult
    public func admit(_ request: HTTPRequest) throws(HTTPError) -> Bool {
        try checkHost(request)
        try checkSameOrigin(request)
        guard let token else { return false }
        if let given = request.query["token"], !token.matches(given) {
            throw .forbidden("the token in the address is wrong — open the URL that camerasun serve printed")
        }
        guard !Self.isPage(request) else { return request.query["token"] != nil }
        if let authorization = request.header("authorization") {
            guard authorization.lowercased().hasPrefix("bearer "),
                  token.matches(authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces))
            else {
                throw .forbidden("the Authorization header does not carry the right token — send Authorization: Bearer TOKEN")
            }
        } else if let cookie = request.cookies[Self.cookieName] {
            guard token.matches(cookie) else {
                throw .forbidden("the \(Self.cookieName) cookie is not the right token — open the URL that camerasun serve printed")
            }
        } else {
            throw HTTPError(
                .unauthorized, "\(request.path) needs the token — send Authorization: Bearer TOKEN or open the printed URL first",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        return true
    }

    /// Headers for the answer to an admitted request: the token cookie when the request carried the
    /// right `?token=`.
    public func responseHeaders(for request: HTTPRequest) -> HTTPHeaders {
        guard let token, let given = request.query["token"], token.matches(given) else { return [:] }
        return ["Set-Cookie": "\(Self.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict"]
    }

    private func checkSameOrigin(_ request: HTTPRequest) throws(HTTPError) {
        guard request.method.isStateChanging else { return }
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            throw .forbidden("cross-site \(request.method) refused (Sec-Fetch-Site: \(site)) — use the viewfinder page itself")
        }
        guard let origin = request.header("origin") else { return }
        let host = request.header("host")?.lowercased()
        guard let authority = Self.authority(ofOrigin: origin), authority == host else {
            throw .forbidden("cross-site \(request.method) refused (Origin \(origin) is not \(host ?? "this server")) — use the viewfinder page itself")
        }
    }

    private func checkHost(_ request: HTTPRequest) throws(HTTPError) {
        guard let host = request.header("host") else { return }
        guard hosts.admits(Self.hostName(ofAuthority: host.lowercased())) else {
            throw .forbidden("host \(host) is not an address or name of this server — open the URL that camerasun serve printed")
        }
    }

    /// The page at `/`: static HTML, served without the token so that it can be opened to receive one.
    private static func isPage(_ request: HTTPRequest) -> Bool {
        request.path == "/" && (request.method == .get || request.method == .head)
    }

    /// `host[:port]` of an origin such as `http://127.0.0.1:8080`, lower-cased; nil for `null`.
    private static func authority(ofOrigin origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        let authority = origin[schemeEnd.upperBound...].prefix { $0 != "/" }
        return authority.isEmpty ? nil : authority.lowercased()
    }

    /// The host of `host[:port]` or `[v6][:port]`.
    private static func hostName(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.prefix { $0 != ":" })
    }
}
