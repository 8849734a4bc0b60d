/// A camera as a session's source of frames (AVCaptureDeviceInput).
///
/// A session takes exactly one device input; its video goes to every output through a
/// `CaptureConnection`.
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
