/// What happened to a running session, in the order it happened (`CaptureSession.events()`).
public enum SessionEvent: Sendable, Equatable {
    /// The session started: its device streams (or is interrupted and will stream when it can).
    case started
    /// The session stopped, because `stop()` was called or after a `runtimeError`.
    case stopped
    /// Frames stopped coming for `reason`; the session retries and reports `interruptionEnded`
    /// when the device works again. Reported once per interruption.
    case interrupted(InterruptionReason)
    /// The device streams again after an interruption.
    case interruptionEnded
    /// The device failed in a way the session cannot recover from; `stopped` follows.
    case runtimeError(CaptureError)
    /// The device has no more frames (a video file played once); `stopped` follows.
    case ended
}
