import CameraCore

/// Where a camera sits relative to the user.
public enum DevicePosition: String, Sendable, Hashable {
    case front, back, external, unspecified
}

/// A camera: its identity, the formats it offers and the ranges of its controls.
///
/// Implemented by the simulated camera and by V4L2 cameras; sessions and the CLI see only this.
public protocol CaptureDevice: AnyObject, Sendable {
    /// Stable identifier, e.g. "sim:backlit-portrait" or "/dev/video0".
    var uniqueID: String { get }
    var localizedName: String { get }
    var position: DevicePosition { get }
    var formats: [DeviceFormat] { get }
    var activeFormat: DeviceFormat { get }
    var capabilities: DeviceCapabilities { get }
}
