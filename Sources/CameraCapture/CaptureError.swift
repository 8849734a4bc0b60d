import CameraCore

/// Why a session's frames stopped coming for a while.
public enum InterruptionReason: String, Sendable, Hashable, Codable {
    /// Another process holds the camera (V4L2 EBUSY).
    case deviceInUseByAnotherClient
    /// The camera was unplugged or its node disappeared.
    case deviceRemoved
    /// The machine cannot keep up (frames late for too long, memory pressure).
    case systemPressure
}

/// Why a frame never reached an output. Every dropped frame is reported once with its reason.
public enum FrameDropReason: String, Sendable, Hashable, Codable {
    /// The consumer was still busy with an earlier frame and the output discards late frames.
    case late
    /// Every pooled buffer was still held, so the device could not capture it.
    case outOfBuffers
    /// The stream skipped: frames lost around an interruption or a format change.
    case discontinuity
    /// The device marked the frame as damaged, or gave less than a whole frame (V4L2's error flag).
    case damaged
}

/// What can go wrong when capturing, with what the user can do about it.
public enum CaptureError: Error, Equatable, CustomStringConvertible {
    /// The device cannot be used now; the session reports an interruption and recovers when it can.
    case interrupted(InterruptionReason, detail: String)
    /// The process may not open the device.
    case notAuthorized(device: String, remedy: String)
    /// A frame was lost; the stream goes on.
    case frameDropped(FrameDropReason)
    /// The session's inputs, outputs or preset, a device's settings or a format request do not
    /// fit together or with the device.
    case invalidConfiguration(String)
    /// Anything else the device reported (an I/O error, an unsupported control).
    case deviceFailure(device: String, detail: String)
    /// The device has no more frames (a video file played once); the session stops.
    case ended(device: String)
    /// A frame's picture could not be made; the cause says what failed.
    case processingFailed(FrameProcessingError)

    public var description: String {
        switch self {
        case .interrupted(let reason, let detail): "camera interrupted (\(reason.rawValue)): \(detail)"
        case .notAuthorized(let device, let remedy): "not allowed to use \(device) — \(remedy)"
        case .frameDropped(let reason): "frame dropped (\(reason.rawValue))"
        case .invalidConfiguration(let message): "invalid configuration: \(message)"
        case .deviceFailure(let device, let detail): "\(device) failed: \(detail)"
        case .ended(let device): "\(device) has no more frames"
        case .processingFailed(let cause): "a frame could not be processed: \(cause)"
        }
    }
}
