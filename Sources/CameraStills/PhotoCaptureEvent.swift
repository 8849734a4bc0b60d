/// The stages of one photo request, delivered exactly once each and in this order
/// (AVCapturePhotoCaptureDelegate's callbacks).
public enum PhotoCaptureEvent: Sendable {
    /// The request was accepted with these settings.
    case willBegin(PhotoSettings)
    /// The shutter moment: the frame is being chosen now.
    case willCapture
    /// The frame is chosen; processing starts.
    case didCapture
    /// The photo is encoded, or failed.
    case didFinishProcessing(Result<CapturedPhoto, PhotoCaptureError>)
    /// The request is over; nothing more will be said about it.
    case didFinishCapture

    /// A short name for logs and tests: "willBegin", "willCapture", ….
    public var name: String {
        switch self {
        case .willBegin: "willBegin"
        case .willCapture: "willCapture"
        case .didCapture: "didCapture"
        case .didFinishProcessing: "didFinishProcessing"
        case .didFinishCapture: "didFinishCapture"
        }
    }
}
