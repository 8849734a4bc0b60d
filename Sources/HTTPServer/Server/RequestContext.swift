import Foundation

/// What the server knows about one request while libmicrohttpd delivers it in several calls: the raw
/// request-target (before any decoding, so that encoded traversal is judged on the original), and
/// the body so far. Used by one connection thread at a time.
final class RequestContext {
    let rawTarget: String
    /// The request without its body, set on the first call (headers received) once the access
    /// policy admitted it; the response is queued on a later call, so that keep-alive connections
    /// stay open.
    var head: HTTPRequest?
    /// Set once a response is queued (early 413 included); later calls discard upload data.
    var responded = false
    /// The body so far, while it is within the limit.
    var body = Data()
    /// Body bytes received, kept also past the limit to report the size in the 413.
    var receivedBytes = 0

    init(rawTarget: String) {
        self.rawTarget = rawTarget
    }
}
