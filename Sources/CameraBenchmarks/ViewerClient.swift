import CameraCore
import CameraTestSupport
import Foundation

/// One `/stream` viewer on a thread of its own, counting the whole parts it reads after the first
/// (which the server sends at once from its last frame) until `finish()`.
final class ViewerClient: Sendable {
    struct Reading: Sendable {
        var framesPerSecond = 0.0
        /// The longest time between two parts, in milliseconds.
        var longestGap = 0.0
        var failure: String?
    }

    private let port: UInt16
    private let streaming = Locked(false)
    private let stopping = Locked(false)
    private let reading = Locked(Reading())
    /// Given once the reading thread has ended.
    private let done = Condition(0)

    init(port: UInt16) {
        self.port = port
    }

    /// Whether the first part has arrived (the client is counting from then on).
    var isStreaming: Bool { streaming.withLock { $0 } }

    func start() {
        Thread { [self] in
            defer { done.give() }
            do {
                let connection = try RawHTTPConnection(port: port)
                let head = try connection.openStream("/stream")
                guard head.status == 200 else { throw BenchmarkError("GET /stream answered \(head.status)") }
                _ = try connection.nextPart()
                streaming.withLock { $0 = true }
                let started = ContinuousClock.now
                var (parts, last, longestGap) = (0, started, Duration.zero)
                while !stopping.withLock({ $0 }) {
                    _ = try connection.nextPart()
                    let now = ContinuousClock.now
                    (parts, last, longestGap) = (parts + 1, now, max(longestGap, now - last))
                }
                let rate = Double(parts) / (ContinuousClock.now - started).seconds
                reading.withLock { $0 = Reading(framesPerSecond: rate, longestGap: longestGap.milliseconds) }
            } catch {
                reading.withLock { $0.failure = "\(error)" }
            }
        }.start()
    }

    /// Stops the client after the part it is reading and returns its rate (blocking: call it off the pool).
    func finish() -> Reading {
        stopping.withLock { $0 = true }
        _ = done.take()
        return reading.withLock { $0 }
    }
}
