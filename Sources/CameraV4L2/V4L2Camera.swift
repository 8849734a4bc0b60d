import CameraCapture
import CameraCore
import CameraSystem

/// A V4L2 camera (a USB webcam, a Raspberry Pi camera): a `CaptureDevice` over a video node.
///
/// Making one probes the node — open, QUERYCAP, the formats, frame sizes and rates CameraSun can
/// take, the controls it has — and closes it again. `startStreaming()` opens a `V4L2Stream` in
/// the active format and rate, with manual exposure so that CameraSun's auto-exposure drives the
/// sensor through `apply`; `stopStreaming()` closes it. Every request goes to the `V4L2Driver`
/// it was made with: the kernel (`KernelDriver`), or a scripted driver in tests.
///
/// ```swift
/// let camera = try V4L2Camera(path: "/dev/video0")
/// try camera.startStreaming()
/// let frame = try await camera.nextFrame()
/// ```
public final class V4L2Camera: CaptureDevice {
    /// The video node, e.g. "/dev/video0".
    public let path: String
    public let driver: any V4L2Driver
    /// What the node said it is (QUERYCAP).
    public let identity: V4L2Capabilities
    /// The formats it offers and the code each comes in.
    let catalog: V4L2FormatCatalog
    /// The controls the camera has among those CameraSun uses, with their ranges.
    public let controls: V4L2ControlSet
    public let settingsStore: DeviceSettingsStore
    /// Driver buffers requested per stream, and pool buffers for the frames handed out.
    public let bufferCount: Int
    private let state = Locked(State())

    public var uniqueID: String { path }
    public var localizedName: String { identity.card.isEmpty ? path : "\(identity.card) (\(path))" }
    public var position: DevicePosition { .external }
    public var formats: [DeviceFormat] { catalog.formats }
    public var capabilities: DeviceCapabilities { controls.capabilities }
    /// Authorized: the probe opened the node (a node this process may not open throws
    /// `.notAuthorized` when the camera is made).
    public var authorization: AuthorizationStatus { .authorized }

    /// The camera at `path`, probed through `driver`, set to its largest format that reaches
    /// 30 fps. Throws `.notAuthorized` with the remedy when the node may not be opened (EACCES),
    /// `.interrupted` when another program holds it (EBUSY), and `.invalidConfiguration` when there
    /// is no such node (a camera never seen is not a removed one), it is not a capture device or it
    /// offers no format CameraSun takes.
    public init(path: String, driver: any V4L2Driver, bufferCount: Int = 4) throws(CaptureError) {
        let node: any V4L2Node
        do {
            node = try driver.open(path)
        } catch where error.errno == .noSuchFileOrDirectory {
            throw .invalidConfiguration("there is no \(path) — plug the camera in or check the path; camerasun devices lists the cameras found")
        } catch {
            throw .v4l2(error)
        }
        identity = try V4L2Stream.requireStreamingCapture(node)
        catalog = try V4L2FormatCatalog(of: node)
        controls = try V4L2ControlSet.discover(on: node)
        guard let initial = catalog.preferred else {
            throw .invalidConfiguration("\(path) (\(identity.card)) offers no format CameraSun can take (\(FourCC.supportedList)) "
                + "— choose another camera")
        }
        self.path = path
        self.driver = driver
        self.bufferCount = bufferCount
        settingsStore = DeviceSettingsStore(DeviceSettings(activeFormat: initial))
    }

    /// The camera at `path` on the real kernel.
    public convenience init(path: String) throws(CaptureError) {
        try self.init(path: path, driver: KernelDriver())
    }

    // MARK: Stream

    /// Opens the stream in the active format and rate, setting manual exposure and the controls
    /// the last `apply` asked for. Does nothing while streaming. After an unplug it opens the node
    /// again: while the node is absent (ENOENT) it throws `.interrupted(.deviceRemoved)`, as it
    /// does while a node that came back may not yet be opened (EACCES until udev has set its
    /// permissions), so the session waits on; frames are numbered on from before the unplug.
    public func startStreaming() throws(CaptureError) {
        let settings = settings
        try state.withLock { (state) throws(CaptureError) in
            guard state.stream == nil else { return }
            guard let code = catalog.codes[settings.activeFormat.pixelFormat] else {
                throw .invalidConfiguration("\(path) offers no \(settings.activeFormat.pixelFormat) format — choose one of its formats")
            }
            let plan = V4L2Stream.Plan(format: settings.activeFormat, code: code, frameRate: settings.frameRate, controls: state.requested,
                                       controlSet: controls, bufferCount: bufferCount)
            let stream: V4L2Stream
            do throws(CaptureError) {
                stream = try V4L2Stream.open(path, driver: driver, plan: plan)
            } catch .notAuthorized(let device, let remedy) where state.wasRemoved {
                throw .interrupted(.deviceRemoved, detail: "\(device) is back but may not be opened yet — waiting for its permissions;"
                    + " if this lasts, \(remedy)")
            }
            state.wasRemoved = false
            state.controls = V4L2ControlPipeline(latencyFrames: driver.controlLatencyFrames, values: stream.initialControls)
            state.sequenceBase = state.nextSequence
            state.lastStamp = nil
            state.stream = stream
        }
    }

    /// Closes the stream: STREAMOFF, munmap, close. Idempotent.
    public func stopStreaming() {
        state.withLock { state in
            state.stream?.close()
            state.stream = nil
        }
    }

    /// The next frame, copied (or decoded, for MJPEG) out of the driver's buffer, which goes
    /// straight back to the driver. The stream's reader thread waits for it in poll(2); a
    /// cancelled task stops waiting at once. A frame the driver marks as corrupt, or that does
    /// not decode, is dropped (`.frameDropped(.damaged)`); an unplugged camera (ENODEV) ends the
    /// stream with `.interrupted(.deviceRemoved)`.
    public func nextFrame() async throws -> Frame {
        guard let stream = state.withLock({ $0.stream }) else {
            throw CaptureError.streamNotStarted(path)
        }
        do {
            let taken = try await stream.nextFrame()
            return frame(taken.buffer, taken.filled)
        } catch CaptureError.interrupted(let reason, let detail) {
            end(stream, removed: reason == .deviceRemoved)
            throw CaptureError.interrupted(reason, detail: detail)
        }
    }

    /// Sets the sensor for the frames to come: each driven control the camera has (exposure
    /// time, gain, focus, zoom, power-line frequency) to the value nearest what `controls` asks
    /// — kept where it is while that is within a step of it — and white balance as the settings'
    /// mode says, with S_CTRL only for those that change. A control the driver refuses keeps its
    /// value, and frames say so; the next `apply` tries again.
    public func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        try controls.validate(within: capabilities)
        let settings = settings
        state.withLock { state in
            let wanted = self.controls.values(for: controls, whiteBalance: settings.whiteBalanceMode, holding: state.controls.requested)
            state.requested = wanted
            state.flicker = controls.flicker
            state.exposureBias = controls.exposureBias
            state.whiteBalance = controls.whiteBalance
            guard let stream = state.stream else { return }
            let nextFrame = nextSensorFrame(state, frameRate: settings.frameRate)
            for id in self.controls.driven {
                guard let value = wanted[id], state.controls.requested[id] != value else { continue }
                if (try? stream.setControl(id, to: value)) != nil { state.controls.set(id, to: value, nextFrame: nextFrame) }
            }
        }
    }

    /// The frame the sensor takes next, as far as the camera can tell: the one after the last
    /// handed out, plus one for each frame interval since its stamp — frames the driver filled
    /// while the reader was behind, which a value set now no longer reaches. A stamp a second or
    /// more old says nothing (a stall, or a driver not stamping on the monotonic clock).
    /// `frameRate` is read before the state's lock is taken: the settings have a lock of their own.
    private func nextSensorFrame(_ state: State, frameRate: Double) -> UInt64 {
        guard let last = state.lastStamp, frameRate > 0 else { return state.nextSequence }
        let elapsed = driver.clockMicroseconds - last
        guard (0..<1_000_000).contains(elapsed) else { return state.nextSequence }
        return state.nextSequence + UInt64(Double(elapsed) * frameRate / 1_000_000)
    }

    /// A frame of `buffer`, numbered on from the previous streams, with the controls it was taken
    /// with; a raw frame with the calibration V4L2 cameras are assumed to have and the white
    /// balance last applied, which its development applies (the camera's own white balance is in
    /// its processed formats only).
    private func frame(_ buffer: PixelBuffer, _ filled: V4L2FilledBuffer) -> Frame {
        state.withLock { state in
            let sequence = state.sequenceBase + UInt64(filled.sequence)
            state.nextSequence = sequence + 1
            state.lastStamp = filled.timestampMicroseconds
            var metadata = controls.metadata(state.controls.values(forFrame: sequence), flicker: state.flicker)
            metadata.exposureBias = state.exposureBias
            if case .bayer16(_, let bits) = buffer.format {
                metadata.rawCalibration = RawCalibration.v4l2(significantBits: bits)
                metadata.whiteBalanceGains = state.whiteBalance
            }
            return Frame(buffer: buffer, presentationTime: MediaTime(value: filled.timestampMicroseconds, timescale: 1_000_000),
                         sequenceNumber: sequence, metadata: metadata)
        }
    }

    /// Closes `stream` if it is still the camera's, after it failed — because the camera was
    /// unplugged, when `removed`.
    private func end(_ stream: V4L2Stream, removed: Bool) {
        state.withLock { state in
            guard state.stream === stream else { return }
            stream.close()
            state.stream = nil
            state.wasRemoved = removed
        }
    }
}

extension V4L2Camera {
    /// The camera's mutable state, behind its lock.
    private struct State {
        var stream: V4L2Stream?
        /// The driven controls' values on the open stream: set, and reaching its frames.
        var controls = V4L2ControlPipeline(latencyFrames: 1)
        /// The values the last `apply` asked for, set again when a stream starts.
        var requested: [V4L2ControlID: Int32] = [:]
        var flicker = FlickerMode.off
        var exposureBias = 0.0
        /// The white-balance gains the last `apply` asked for: raw frames are developed with them.
        var whiteBalance = WhiteBalanceGains.unity
        /// The sequence number of the stream's first frame: the driver counts from 0 at each STREAMON.
        var sequenceBase: UInt64 = 0
        var nextSequence: UInt64 = 0
        /// The last frame's stamp on the driver's clock; nil until a stream's first frame.
        var lastStamp: Int64?
        /// The last stream ended because the camera was unplugged, and none has started since.
        var wasRemoved = false
    }
}
