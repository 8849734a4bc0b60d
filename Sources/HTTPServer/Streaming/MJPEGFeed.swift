import Foundation

/// A live JPEG feed as MJPEG: the producer publishes JPEG frames, every client receives them as
/// parts of a `multipart/x-mixed-replace` body. Each frame is framed once and shared by all
/// clients; a slow client skips to the newest frame instead of queueing old ones.
public final class MJPEGFeed: Sendable {
    /// The multipart boundary between frames.
    public let boundary: String
    private let hub = StreamHub()

    public init(boundary: String = "camerasun-frame") {
        self.boundary = boundary
    }

    /// Clients currently receiving the stream.
    public var clientCount: Int { hub.clientCount }

    /// Sends one JPEG frame to every client. With a `frameNumber` (the camera's sequence number)
    /// the part carries it as `X-Frame-Number`, so a client can tell which frame it shows.
    public func publish(jpeg: Data, frameNumber: UInt64? = nil) {
        let number = frameNumber.map { "X-Frame-Number: \($0)\r\n" } ?? ""
        var part = Data("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\(number)\r\n".utf8)
        part.reserveCapacity(part.count + jpeg.count + 2)
        part.append(jpeg)
        part.append(contentsOf: [0x0D, 0x0A])
        hub.publish(part)
    }

    /// The response for a new client: the stream of frames from now on, starting with the newest.
    public func response() -> HTTPResponse {
        let stream = ResponseStream()
        hub.subscribe(stream)
        return HTTPResponse(contentType: "multipart/x-mixed-replace; boundary=\(boundary)", stream: stream)
    }
}
