/// A session event with the camera it happened to (`CaptureSession.deviceEvents()`): in a session
/// of two cameras each streams on its own, so an interruption, a failure or the end of the frames
/// is one camera's. The session's own `started` and `stopped` name none.
public struct SessionDeviceEvent: Sendable, Equatable {
    public let event: SessionEvent
    /// The camera's `uniqueID`, or nil for an event of the whole session.
    public let device: String?

    public init(_ event: SessionEvent, device: String?) {
        self.event = event
        self.device = device
    }
}
