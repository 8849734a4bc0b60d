import CameraCore
import CameraStills

/// The stage names one photo request reported, in order: what tests compare with `stages` to see
/// every stage come exactly once.
final class PhotoStageLog: Sendable {
    /// Every stage of a request, in the order each must come once.
    static let stages = ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishCapture"]

    private let names = Locked<[String]>([])

    init() {}

    /// Pass as the `events` handler of `PhotoOutput.capture`.
    func record(_ event: PhotoCaptureEvent) { names.withLock { $0.append(event.name) } }

    var all: [String] { names.withLock { $0 } }
}
