import CameraCapture
import CameraCodecs
import CameraCore
import CameraFilters
import Foundation

/// Preview frames to MJPEG: each frame is filtered when a feed has clients, recorded in the
/// monitor, then drawn and encoded once for every feed that has clients — the plain preview and
/// each overlay combination being watched — and published; a feed without clients costs nothing.
///
/// ```
///  PreviewOutput ─► frames() ─► run: filters (watched), monitor.record ─► for each active feed:
///                                     PreviewPainter (rotation, mirroring, overlays) ─► JPEGEncoder ─► feed
/// ```
///
/// One task runs the loop with one encoder; `/snapshot` takes the encoded frame when the loop
/// made it for the newest frame, and filters (a copy) and encodes on its own otherwise. With two
/// cameras, the other camera's newest preview (`showInset`) is drawn into each frame's corner.
final class PreviewPipeline: Sendable {
    let feeds: PreviewFeeds
    let monitor: FrameMonitor
    /// The other camera's newest preview frame, drawn as the picture-in-picture; nil with one camera.
    private let inset = Locked<PreviewFrame?>(nil)
    /// The newest JPEG of each overlay combination and the frame it shows.
    private let encoded = Locked<[PreviewOverlays: (frame: UInt64, jpeg: Data)]>([:])
    /// JPEG quality, 1…100.
    let quality: Int
    /// The look the viewer sees, applied to a preview image (the viewer's own copy, in place)
    /// after its statistics were taken; nil shows the picture as it is.
    let filters: FilterChain?

    init(feeds: PreviewFeeds, monitor: FrameMonitor, quality: Int, filters: FilterChain? = nil) {
        self.feeds = feeds
        self.monitor = monitor
        self.quality = quality
        self.filters = filters
    }

    /// Takes `frames` until they end or the task is cancelled.
    func run(_ frames: AsyncStream<PreviewFrame>) async throws {
        let encoder = try JPEGEncoder()
        var painter = PreviewPainter()
        for await frame in frames {
            try show(frame, encoder: encoder, painter: &painter)
        }
    }

    /// Takes the other camera's preview frames (scaled to inset size) until they end or the task
    /// is cancelled; each frame drawn from then on shows the newest in its corner.
    func showInsets(_ frames: AsyncStream<PreviewFrame>) async {
        for await frame in frames {
            inset.withLock { $0 = frame }
        }
    }

    /// One frame: filtered when watched, recorded in the monitor, encoded and published for each active feed.
    private func show(_ frame: PreviewFrame, encoder: JPEGEncoder, painter: inout PreviewPainter) throws {
        let active = feeds.active
        let filtered = filters != nil && !active.isEmpty
        if filtered { try filters?.apply(to: frame.image, at: Date()) }
        monitor.record(frame, isFiltered: filtered)
        for (overlays, feed) in active {
            let jpeg = try encode(frame.image, of: frame, overlays: overlays, encoder: encoder, painter: &painter)
            encoded.withLock { $0[overlays] = (frame.sequenceNumber, jpeg) }
            feed.publish(jpeg: jpeg, frameNumber: frame.sequenceNumber)
        }
    }

    /// The newest frame as JPEG with `overlays`; nil before the first frame.
    func snapshot(overlays: PreviewOverlays) throws -> Data? {
        guard let latest = monitor.latest else { return nil }
        let frame = latest.frame
        if let cached = encoded.withLock({ $0[overlays] }), cached.frame == frame.sequenceNumber {
            return cached.jpeg
        }
        var image = frame.image
        if let filters, !latest.isFiltered {
            image = image.copy()
            try filters.apply(to: image, at: Date())
        }
        var painter = PreviewPainter()
        return try encode(image, of: frame, overlays: overlays, encoder: try JPEGEncoder(), painter: &painter)
    }

    /// `picture` (`frame`'s image, or a filtered copy of it) drawn as the viewer sees it with
    /// `overlays` and the inset, as JPEG.
    private func encode(_ picture: PixelBuffer, of frame: PreviewFrame, overlays: PreviewOverlays, encoder: JPEGEncoder,
                        painter: inout PreviewPainter) throws -> Data {
        var image = picture
        let inset = inset.withLock { $0 }.map { PreviewPainter.Inset(image: $0.image, rotation: $0.rotation, mirrored: $0.isMirrored) }
        if PreviewPainter.isNeeded(overlays: overlays, rotation: frame.rotation, mirrored: frame.isMirrored, inset: inset) {
            image = try painter.paint(image, rotation: frame.rotation, mirrored: frame.isMirrored, overlays: overlays,
                                      sunMask: SunMask(frame.statistics.highlights), inset: inset)
        }
        return Data(try encoder.encode(image, quality: quality))
    }
}
