import CameraCore
import CameraISP
import CameraMetering

/// Why the capture loop could not make a frame's picture, with the error that said so: the image
/// pipeline (a raw frame it cannot develop), a buffer it could not lay out, the metering of the
/// frame, or a control the 3A engine asked for that the device does not offer.
public enum FrameProcessingError: Error, Equatable, CustomStringConvertible {
    case pipeline(ISPError)
    case buffer(PixelBufferError)
    case metering(MeteringError)
    case controls(ValueOutOfRangeError)

    public var description: String {
        switch self {
        case .pipeline(let error): "the image pipeline failed: \(error)"
        case .buffer(let error): "\(error)"
        case .metering(let error): "metering failed: \(error)"
        case .controls(let error): "the 3A engine asked for \(error)"
        }
    }
}
