import CameraCore

/// One answer of VIDIOC_ENUM_FRAMESIZES (`struct v4l2_frmsizeenum`): a size, or every size in
/// steps between two (then it is the only answer).
public enum V4L2FrameSize: Sendable, Hashable {
    /// The corresponding C constant is `V4L2_FRMSIZE_TYPE_DISCRETE`.
    case discrete(PixelSize)
    /// Sizes from `minimum` to `maximum` in steps (`V4L2_FRMSIZE_TYPE_STEPWISE`, or
    /// `V4L2_FRMSIZE_TYPE_CONTINUOUS` with steps of 1).
    case stepwise(minimum: PixelSize, maximum: PixelSize, step: PixelSize)

    /// The sizes CameraSun offers of it: the discrete size, or a stepwise range's smallest and largest.
    var offeredSizes: [PixelSize] {
        switch self {
        case .discrete(let size): [size]
        case .stepwise(let minimum, let maximum, _): minimum == maximum ? [maximum] : [minimum, maximum]
        }
    }
}
