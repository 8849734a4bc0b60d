import Foundation

/// Who may do what: the token on protected paths and the refusal of cross-site and rebinding
/// requests. The server applies it to every request before routing.
///
/// - With a token, `/api/*` and `/library*` need `Authorization: Bearer TOKEN` or the cookie that the
///   server sets when a page is opened with `?token=TOKEN`. Missing: 401; wrong: 403.
/// - State-changing requests (POST, …) from another site are refused (403): `Sec-Fetch-Site` must be
///   `same-origin` or `none` when present, and `Origin`, when present, must name the `Host` asked for.
/// - Without a token only loopback host names are served, so a web page cannot reach the camera by
///   pointing its own domain name at 127.0.0.1 (DNS rebinding).
public struct AccessPolicy: Sendable {
    /// The cookie set from `?token=`: HttpOnly (scripts cannot read it), SameSite=Strict (other
    /// sites' requests do not carry it).
    public static let cookieName = "camerasun_token"

    public let token: AccessToken?
    /// Paths that need the token when one is set.
    public var protectedPathPrefixes = ["/api/", "/library"]

    public init(token: AccessToken?) {
        self.token = token
    }

    /// The policy for a server on `address`: `token` when given; otherwise a generated one when the
    /// address is reachable from other machines (not loopback), else none.
    public static func forListening(on address: ListenAddress, token: AccessToken?) -> AccessPolicy {
        AccessPolicy(token: token ?? (address.isLoopback ? nil : AccessToken.generate()))
    }

    /// Throws the 401/403 `HTTPError` for a request that may not proceed.
    public func admit(_ request: HTTPRequest) throws(HTTPError) {
        try checkSameOrigin(request)
        guard let token else {
            try checkLoopbackHost(request)
            return
        }
        if let given = request.query["token"], !token.matches(given) {
            throw .forbidden("the token in the address is wrong — open the URL that camerasun serve printed")
        }
        guard protectedPathPrefixes.contains(where: request.path.hasPrefix) else { return }
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

    private func checkLoopbackHost(_ request: HTTPRequest) throws(HTTPError) {
        guard let host = request.header("host") else { return }
        guard ListenAddress.isLoopbackName(Self.hostName(ofAuthority: host.lowercased())) else {
            throw .forbidden("host \(host) is not this machine's loopback address — open http://127.0.0.1:PORT/, or start the server with a token to serve other names")
        }
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
