/// A camera as a session's source of frames (AVCaptureDeviceInput).
///
/// A session takes one device input, or two at once; each output's `CaptureConnection` is fed by
/// one of them (`SessionConfiguration.add(_:from:)`).
public struct DeviceInput: Sendable {
    public let device: any CaptureDevice

    public init(_ device: any CaptureDevice) {
        self.device = device
    }

    /// True when both inputs are the same device object.
    func isSameDevice(as other: DeviceInput) -> Bool {
        device === other.device
    }
}
