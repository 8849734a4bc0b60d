import CameraCore
import CameraTestSupport
import Foundation

/// One `/stream` viewer on a thread of its own, counting the whole parts it reads after the first
/// (which the server sends at once from its last frame) until `finish()`.
final class ViewerClient: Sendable {
    struct Reading: Sendable {
        var framesPerSecond = 0.0
        /// The fewest parts read in any whole second of the run.
        var worstSecond = 0
        var failure: String?
    }

    private let port: UInt16
    private let streaming = Locked(false)
    private let stopping = Locked(false)
    private let reading = Locked(Reading())
    private let done = DispatchSemaphore(value: 0)

    init(port: UInt16) {
        self.port = port
    }

    /// Whether the first part has arrived (the client is counting from then on).
    var isStreaming: Bool { streaming.withLock { $0 } }

    func start() {
        Thread { [self] in
            defer { done.signal() }
            do {
                let connection = try RawHTTPConnection(port: port)
                let head = try connection.openStream("/stream")
                guard head.status == 200 else { throw BenchmarkError("GET /stream answered \(head.status)") }
                _ = try connection.nextPart()
                streaming.withLock { $0 = true }
                let started = ContinuousClock.now
                var perSecond: [Int] = []
                while !stopping.withLock({ $0 }) {
                    _ = try connection.nextPart()
                    let second = Int((ContinuousClock.now - started).seconds)
                    while perSecond.count <= second { perSecond.append(0) }
                    perSecond[second] += 1
                }
                let elapsed = (ContinuousClock.now - started).seconds
                let whole = perSecond.prefix(Int(elapsed))
                reading.withLock {
                    $0.framesPerSecond = Double(perSecond.reduce(0, +)) / elapsed
                    $0.worstSecond = whole.min() ?? 0
                }
            } catch {
                reading.withLock { $0.failure = "\(error)" }
            }
        }.start()
    }

    /// Stops the client after the part it is reading and returns its rate (blocking: call it off the pool).
    func finish() -> Reading {
        stopping.withLock { $0 = true }
        done.wait()
        return reading.withLock { $0 }
    }
}
