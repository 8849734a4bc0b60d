/// Where a session sends frames: `VideoDataOutput` for app code, `PreviewOutput` for viewers, and
/// later the photo, movie and streaming outputs.
///
/// The session calls these methods from its capture loop, one frame at a time and in order. They
/// must return promptly — queue the frame or drop it, never wait for a consumer — because every
/// output and the 3A engine wait for them.
public protocol CaptureOutput: AnyObject, Sendable {
    /// Throws `CaptureError.invalidConfiguration`, saying what the output needs, when it cannot take
    /// frames of `format`. Checked when a session configuration is committed.
    func checkCompatibility(with format: DeviceFormat) throws(CaptureError)
    /// A new frame, already analysed and carrying this output's connection values.
    func receive(_ frame: CapturedFrame)
    /// A frame the device lost before it reached any output (`outOfBuffers`, `discontinuity`).
    func receive(_ drop: DroppedFrame)
    /// Returns once the output can take another frame without dropping it. The session waits on
    /// it only for a device that delivers as fast as it is asked (`deliversInRealTime` false),
    /// so that transcoding a file loses no frame; a live camera is never held back.
    func awaitCapacity() async
    /// Whether this output's frames carry the device's raw frame beside the picture
    /// (`CapturedFrame.raw`): only for an output that needs it, as a frame held keeps a device buffer.
    var receivesRawFrames: Bool { get }
    /// Called when a configuration that feeds this output through `connection` takes effect
    /// (AVCaptureOutput's `connections`): an output that asks its stream for photos of several
    /// frames keeps it (`CaptureConnection.frameRequests`).
    func connected(through connection: CaptureConnection)
}

extension CaptureOutput {
    /// Outputs that take any format need not check.
    public func checkCompatibility(with format: DeviceFormat) throws(CaptureError) {}

    /// Outputs that queue without bound (or drop late frames by design) never hold the session back.
    public func awaitCapacity() async {}

    /// Outputs get the picture only.
    public var receivesRawFrames: Bool { false }

    /// Outputs that ask nothing of their stream need not keep their connection.
    public func connected(through connection: CaptureConnection) {}

    /// The output's type name, for error messages.
    var typeName: String { String(describing: type(of: self)) }
}
