import CameraCore
import CameraV4L2

/// How `ScriptedV4L2Driver` answers S_FMT and S_PARM from the sizes and intervals it lists:
/// with the listed size or interval nearest what was asked, as drivers adjust rather than refuse.
extension V4L2FrameSize {
    /// Whether ENUM_FRAMEINTERVALS answers for `size`.
    func accepts(_ size: PixelSize) -> Bool {
        switch self {
        case .discrete(let offered): offered == size
        case .stepwise(let minimum, let maximum, let step):
            (minimum.width...maximum.width).contains(size.width) && (minimum.height...maximum.height).contains(size.height)
                && (size.width - minimum.width) % max(step.width, 1) == 0 && (size.height - minimum.height) % max(step.height, 1) == 0
        }
    }

    /// The size of this answer nearest `size`: itself, or `size` held within the range on its steps.
    func nearest(to size: PixelSize) -> PixelSize {
        switch self {
        case .discrete(let offered): return offered
        case .stepwise(let minimum, let maximum, let step):
            func held(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Int {
                low + (min(max(value, low), high) - low) / max(step, 1) * max(step, 1)
            }
            return PixelSize(width: held(size.width, minimum.width, maximum.width, step.width),
                             height: held(size.height, minimum.height, maximum.height, step.height))
        }
    }
}

extension V4L2FrameInterval {
    /// The interval of this answer nearest `interval`: itself, or `interval` when its rate lies
    /// within the range, else the nearer end.
    func nearest(to interval: V4L2Fraction) -> V4L2Fraction {
        switch self {
        case .discrete(let offered): return offered
        case .stepwise(let fastest, let slowest, _):
            if interval.frameRate > fastest.frameRate { return fastest }
            if interval.frameRate < slowest.frameRate { return slowest }
            return interval
        }
    }
}
