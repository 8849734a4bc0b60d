import HTTPServer

/// One MJPEG feed per overlay combination: `/stream` is the plain preview, `/stream?overlay=zebra`
/// and the others each have their own feed, so that a frame is drawn and encoded once per
/// combination and shared by every client of it. The camera side encodes only the feeds that have
/// clients (`active`).
public final class PreviewFeeds: Sendable {
    private let feeds: [PreviewOverlays: MJPEGFeed]

    /// Feeds for every combination of `PreviewOverlays`, with `plain` for none.
    public init(plain: MJPEGFeed = MJPEGFeed()) {
        var feeds: [PreviewOverlays: MJPEGFeed] = [:]
        for overlays in PreviewOverlays.combinations {
            feeds[overlays] = overlays.isEmpty ? plain : MJPEGFeed(boundary: plain.boundary)
        }
        self.feeds = feeds
    }

    /// The feed that carries frames with `overlays` drawn (none: the plain preview).
    public func feed(for overlays: PreviewOverlays) -> MJPEGFeed {
        // Every combination has a feed (see init).
        feeds[overlays]!
    }

    /// The feeds that have clients now, plain first, each with its overlays.
    public var active: [(overlays: PreviewOverlays, feed: MJPEGFeed)] {
        PreviewOverlays.combinations.map { ($0, feed(for: $0)) }.filter { $0.feed.clientCount > 0 }
    }

    /// Clients of all feeds together.
    public var clientCount: Int {
        feeds.values.reduce(0) { $0 + $1.clientCount }
    }
}
