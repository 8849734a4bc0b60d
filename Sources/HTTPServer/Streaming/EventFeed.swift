import Foundation

/// Server-Sent Events (`text/event-stream`): the camera side publishes events (the `/state` JSON),
/// every `/events` client receives them. A slow client gets the newest event, not a backlog; an
/// idle feed sends a comment every 15 s so that clients that went away are noticed.
public final class EventFeed: Sendable {
    private let hub = StreamHub()

    public init() {}

    /// Clients currently receiving events.
    public var clientCount: Int { hub.clientCount }

    /// Sends one event carrying `data` (usually one JSON object; line breaks become extra `data:`
    /// lines as the SSE format requires), with an optional event `name`.
    public func publish(_ data: Data, name: String? = nil) {
        var text = name.map { "event: \($0)\n" } ?? ""
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        hub.publish(Data((text + "\n").utf8))
    }

    /// The response for a new client: events from now on, starting with the newest.
    public func response() -> HTTPResponse {
        let stream = ResponseStream(heartbeat: Data(": keep-alive\n\n".utf8))
        hub.subscribe(stream)
        return HTTPResponse(contentType: "text/event-stream", stream: stream)
    }
}
