import CameraCore
import Foundation

/// A camera that delivered clearly fewer frames per second than asked for, with the likely reason:
/// what `meter --realtime` says instead of silently running slow.
struct FrameRateShortfall: CustomStringConvertible {
    let requested: Double
    let delivered: Double
    let dropped: Int
    let size: PixelSize

    /// Below this fraction of the requested rate the shortfall is reported.
    static let tolerance = 0.95

    /// nil when `frames` reported over `seconds` of wall-clock time come within `tolerance` of
    /// `requested`, or when too few frames were seen to judge.
    init?(frames: Int, seconds: Double, dropped: Int, requested: Double, size: PixelSize) {
        guard frames >= 10, seconds > 0 else { return nil }
        delivered = Double(frames - 1) / seconds
        guard delivered < requested * FrameRateShortfall.tolerance else { return nil }
        self.requested = requested
        self.dropped = dropped
        self.size = size
    }

    var description: String {
        String(format: "delivered %.1f fps of the %.0f requested at %@ (%d frames dropped)", delivered, requested, size.description, dropped)
            + " — the simulated camera renders and analyses every frame on this machine's CPU; try a smaller --width/--height or a lower --framerate"
    }
}
