import CameraCapture
import CameraMetering

/// What the flash does for one photo, judged by a frame of the stream: `on` fires it (a camera
/// without one cannot), `auto` fires it when the frame shows a dim scene (`SceneFlags.lowLight`),
/// `off` never does. Only the decision is kept, not the frame, so a request waiting its turn
/// holds none of the device's few buffers.
enum FlashDecision {
    case dark
    case fire
    /// `on` on a camera without a flash: the request fails, saying so.
    case missing

    init(_ mode: PhotoSettings.FlashMode, judgedBy frame: CapturedFrame, hasFlash: Bool) {
        switch mode {
        case .off:
            self = .dark
        case .on:
            self = hasFlash ? .fire : .missing
        case .auto:
            let lowLight = SceneFlags(statistics: frame.statistics, metadata: frame.metadata).lowLight
            self = lowLight && hasFlash ? .fire : .dark
        }
    }

    var fires: Bool {
        if case .fire = self { return true }
        return false
    }
}
