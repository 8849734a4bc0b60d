import CameraCore

/// Where a camera sits relative to the user.
public enum DevicePosition: String, Sendable, Hashable {
    case front, back, external, unspecified
}

/// A camera: its identity, the formats it offers, the ranges of its controls, its user-facing
/// settings (changed only inside `configure`) and the frame stream a `CaptureSession` drives.
///
/// Implemented by the simulated camera and by V4L2 cameras; sessions and the CLI see only this.
/// A device conforms by owning a `DeviceSettingsStore` and the stream methods; `configure` and
/// `settings` come from the protocol extension, so every device validates the same way.
public protocol CaptureDevice: AnyObject, Sendable {
    /// Stable identifier, e.g. "sim:backlit-portrait" or "/dev/video0".
    var uniqueID: String { get }
    var localizedName: String { get }
    var position: DevicePosition { get }
    var formats: [DeviceFormat] { get }
    var capabilities: DeviceCapabilities { get }
    /// Whether this process may use the device, and what to do when it may not.
    var authorization: AuthorizationStatus { get }
    /// The settings the user asked for, behind the device's lock.
    var settingsStore: DeviceSettingsStore { get }

    /// Opens the frame stream in the active format and frame rate as they are now: a format or
    /// rate configured while streaming applies at the next start. Does nothing while streaming.
    /// Throws `CaptureError` when the device is busy, gone or not authorized. Called by the
    /// session on its executor only.
    func startStreaming() throws(CaptureError)
    /// Closes the frame stream; frames already handed out stay valid. Idempotent.
    func stopStreaming()
    /// The next frame of the started stream. Throws `CaptureError.frameDropped(.outOfBuffers)`
    /// when every buffer is still held (the frame is lost, the stream goes on), `.interrupted`
    /// when the device became unavailable (which ends the stream: start it again once the device
    /// is back), `.deviceFailure` when the stream was not started, and `CancellationError` when
    /// the task is cancelled.
    func nextFrame() async throws -> Frame
    /// Sets the sensor for the frames to come (what the 3A engine decided). A value outside
    /// `capabilities` throws naming the control and its range, and nothing changes.
    func apply(_ controls: SensorControls) throws(ValueOutOfRangeError)
    /// Whether frames come at the pace of a clock (a live camera, realtime pacing) rather than as
    /// fast as the session asks (a file or a simulation run flat out). A session waits for its
    /// outputs before asking such a device for the next frame, so they lose none.
    var deliversInRealTime: Bool { get }
}

extension CaptureDevice {
    /// A camera delivers at its own pace.
    public var deliversInRealTime: Bool { true }

    /// The active format (a shorthand for `settings.activeFormat`).
    public var activeFormat: DeviceFormat { settingsStore.settings.activeFormat }

    /// A snapshot of the settings the user asked for.
    public var settings: DeviceSettings { settingsStore.settings }

    /// Changes settings as one transaction: `body` edits a copy, which replaces the settings only
    /// when `body` returns and every value is within the device's formats and capabilities —
    /// there is no lock to forget and no half-applied configuration. A value out of range throws
    /// `ValueOutOfRangeError` naming the setting and its range.
    ///
    /// ```swift
    /// try camera.configure { settings in
    ///     settings.exposureMode = .continuousAuto
    ///     settings.exposureBias = 0.7
    ///     settings.exposurePoint = NormalizedPoint(x: 0.4, y: 0.6)
    /// }
    /// ```
    public func configure(_ body: (inout DeviceSettings) throws -> Void) throws {
        try settingsStore.update(formats: formats, capabilities: capabilities, body)
    }
}
