import CameraCapture

/// One answer of VIDIOC_ENUM_FRAMEINTERVALS (`struct v4l2_frmivalenum`): a frame interval, or
/// every interval in steps between two (then it is the only answer).
public enum V4L2FrameInterval: Sendable, Hashable {
    /// The corresponding C constant is `V4L2_FRMIVAL_TYPE_DISCRETE`.
    case discrete(V4L2Fraction)
    /// Intervals from `minimum` (the fastest rate) to `maximum` (`V4L2_FRMIVAL_TYPE_STEPWISE` or `…_CONTINUOUS`).
    case stepwise(minimum: V4L2Fraction, maximum: V4L2Fraction, step: V4L2Fraction)

    /// The frame rates it allows, or nil for an interval of zero (which a driver should not report).
    var frameRates: FrameRateRange? {
        switch self {
        case .discrete(let interval):
            interval.frameRate > 0 ? FrameRateRange(minimum: interval.frameRate, maximum: interval.frameRate) : nil
        case .stepwise(let minimum, let maximum, _):
            maximum.frameRate > 0 && minimum.frameRate >= maximum.frameRate
                ? FrameRateRange(minimum: maximum.frameRate, maximum: minimum.frameRate) : nil
        }
    }
}
