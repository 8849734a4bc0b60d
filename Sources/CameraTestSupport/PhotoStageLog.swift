import CameraCapture
import CameraCore

/// The stage names one photo request reported, in order: what tests compare with `stages` to see
/// every stage come exactly once.
public final class PhotoStageLog: Sendable {
    /// Every stage of a request, in the order each must come once.
    public static let stages = ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishCapture"]

    private let names = Locked<[String]>([])

    public init() {}

    /// Pass as the `events` handler of `PhotoOutput.capture`.
    public func record(_ event: PhotoCaptureEvent) { names.withLock { $0.append(event.name) } }

    public var all: [String] { names.withLock { $0 } }
}
