import CameraCapture
import CameraCodecs
import CameraCore
import Foundation

/// Preview frames to MJPEG: each frame is recorded in the monitor, then drawn and encoded once for
/// every feed that has clients — the plain preview and each overlay combination being watched —
/// and published; a feed without clients costs nothing.
///
/// ```
///  PreviewOutput ─► frames() ─► run: monitor.record ─► for each active feed:
///                                     PreviewPainter (rotation, mirroring, overlays) ─► JPEGEncoder ─► feed
/// ```
///
/// One task runs the loop with one encoder; `/snapshot` takes the encoded frame when the loop
/// made it for the newest frame, and encodes on its own otherwise.
final class PreviewPipeline: Sendable {
    let feeds: PreviewFeeds
    let monitor: FrameMonitor
    /// The newest JPEG of each overlay combination and the frame it shows.
    private let encoded = Locked<[PreviewOverlays: (frame: UInt64, jpeg: Data)]>([:])
    /// JPEG quality, 1…100.
    let quality: Int

    init(feeds: PreviewFeeds, monitor: FrameMonitor, quality: Int) {
        self.feeds = feeds
        self.monitor = monitor
        self.quality = quality
    }

    /// Takes `frames` until they end or the task is cancelled.
    func run(_ frames: AsyncStream<PreviewFrame>) async throws {
        let encoder = try JPEGEncoder()
        var painter = PreviewPainter()
        for await frame in frames {
            monitor.record(frame)
            for (overlays, feed) in feeds.active {
                let jpeg = try encode(frame, overlays: overlays, encoder: encoder, painter: &painter)
                encoded.withLock { $0[overlays] = (frame.sequenceNumber, jpeg) }
                feed.publish(jpeg: jpeg, frameNumber: frame.sequenceNumber)
            }
        }
    }

    /// The newest frame as JPEG with `overlays`; nil before the first frame.
    func snapshot(overlays: PreviewOverlays) throws -> Data? {
        guard let frame = monitor.latest?.frame else { return nil }
        if let cached = encoded.withLock({ $0[overlays] }), cached.frame == frame.sequenceNumber {
            return cached.jpeg
        }
        var painter = PreviewPainter()
        return try encode(frame, overlays: overlays, encoder: try JPEGEncoder(), painter: &painter)
    }

    /// `frame` drawn as the viewer sees it with `overlays`, as JPEG.
    private func encode(_ frame: PreviewFrame, overlays: PreviewOverlays, encoder: JPEGEncoder,
                        painter: inout PreviewPainter) throws -> Data {
        var image = frame.image
        if PreviewPainter.isNeeded(overlays: overlays, rotation: frame.rotation, mirrored: frame.isMirrored) {
            image = try painter.paint(frame.image, rotation: frame.rotation, mirrored: frame.isMirrored, overlays: overlays,
                                      sunMask: SunMask(frame.statistics.highlights))
        }
        return Data(try encoder.encode(image, quality: quality))
    }
}
