import CameraCore

/// The path from a session's device input to one output, with how that output's frames should be
/// displayed: rotation, mirroring and a stabilisation request (AVCaptureConnection).
///
/// The pixels are never rotated or flipped by the session: each `CapturedFrame` carries the
/// connection's values at the time it was captured, and the consumer applies them (rotate
/// clockwise, then mirror — as `PreviewGeometry` does). Properties may be changed at any time,
/// from any task; the next frame carries the new values.
public final class CaptureConnection: Sendable {
    private struct State {
        var rotation = Rotation.degrees0
        var explicitMirroring: Bool?
        var devicePosition = DevicePosition.unspecified
        var stabilizationMode = VideoStabilizationMode.off
        var isEnabled = true
        var frameRequests: FrameRequests?

        var mirrored: Bool { explicitMirroring ?? (devicePosition == .front) }
    }

    private let state = Locked(State())

    init() {}

    /// The clockwise rotation that shows the frames upright.
    public var rotation: Rotation {
        get { state.withLock { $0.rotation } }
        set { state.withLock { $0.rotation = newValue } }
    }

    /// Whether the frames are shown flipped horizontally. Until set, it follows the device: on for
    /// a front camera (a mirror image, as users expect of a selfie preview), off otherwise. Setting
    /// it takes over from the automatic choice (no exception, unlike AVFoundation).
    public var isVideoMirrored: Bool {
        get { state.withLock { $0.mirrored } }
        set { state.withLock { $0.explicitMirroring = newValue } }
    }

    /// True while mirroring follows the device's position; setting it to true returns to that.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { state.withLock { $0.explicitMirroring == nil } }
        set { state.withLock { state in
            state.explicitMirroring = newValue ? nil : state.mirrored
        } }
    }

    /// Whether frames flow to the output (AVCaptureConnection's `isEnabled`): a disabled
    /// connection's output gets neither frames nor drop reports, as `stream` holds its push while
    /// the exposure settles and the connection to the server is made.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// The photos of several frames (flash, brackets) the stream feeding this connection takes for
    /// its output (`FrameRequests`); nil while no stream runs.
    public internal(set) var frameRequests: FrameRequests? {
        get { state.withLock { $0.frameRequests } }
        set { state.withLock { $0.frameRequests = newValue } }
    }

    public var stabilizationMode: VideoStabilizationMode {
        get { state.withLock { $0.stabilizationMode } }
        set { state.withLock { $0.stabilizationMode = newValue } }
    }

    /// Called when the session connects an input: automatic mirroring follows its position.
    func connect(to position: DevicePosition) {
        state.withLock { $0.devicePosition = position }
    }

    /// What the connection says of one frame, read together: whether it flows, and how it is shown.
    struct Snapshot {
        let isEnabled: Bool
        let rotation: Rotation
        let isMirrored: Bool
        let stabilizationMode: VideoStabilizationMode
    }

    var snapshot: Snapshot {
        state.withLock { Snapshot(isEnabled: $0.isEnabled, rotation: $0.rotation, isMirrored: $0.mirrored, stabilizationMode: $0.stabilizationMode) }
    }
}
