import CameraCapture
import CameraCore

/// A camera that renders a `SimulatedScene` through a physical sensor model.
///
/// It behaves like a real sensor: exposure and gain requests take effect a frame or two late (and
/// each frame's metadata tells the settings actually used), exposures longer than a frame stretch
/// the frame, frames come from a small pool and are dropped when it runs dry, and it can be made
/// busy or unplugged (`simulateAvailability`). It is paced by the wall clock or runs as fast as
/// frames are asked for, and for a given seed it is deterministic to the byte.
///
/// The stream runs in the format and frame rate of `settings` as they are at `startStreaming()`:
/// a change made with `configure` takes effect at the next start, as on a V4L2 device, whose
/// format is fixed while it streams.
///
/// ```swift
/// let camera = try SimulatedCamera(scene: .backlitPortrait)
/// try camera.updateControls { $0.exposureDuration = 1.0 / 500 }
/// try camera.startStreaming()
/// let frame = try await camera.nextFrame()
/// ```
public final class SimulatedCamera: CaptureDevice {
    /// How frames are paced.
    public enum Pacing: String, Sendable {
        /// One frame per frame duration of wall-clock time.
        case realtime
        /// As fast as `nextFrame()` is called; time advances by the frame duration.
        case virtual
    }

    public let scene: SimulatedScene
    public let seed: UInt64
    public let pacing: Pacing
    public let sensor: SensorModel
    /// `standardFormats`, plus the format the camera was made with when it is not one of them.
    public let formats: [DeviceFormat]
    public let settingsStore: DeviceSettingsStore
    public var uniqueID: String { "sim:\(scene.name)" }
    public var localizedName: String { "Simulated camera (\(scene.name))" }
    /// Where the camera faces: a front camera's preview is mirrored, as users expect of a selfie.
    public let position: DevicePosition
    public var deliversInRealTime: Bool { pacing == .realtime }
    public var capabilities: DeviceCapabilities { SimulatedCamera.standardCapabilities }
    /// Always `.authorized`: no device node to be denied.
    public var authorization: AuthorizationStatus { .authorized }

    private let bufferCount: Int
    let state: Locked<State>
    /// The sensor's read-out in realtime pacing: one frame at a time, off the concurrency pool.
    private let readOutWorker = SerialWorker(name: "simulated read-out")

    /// The memory a camera takes per pixel of its frames while it renders: the scene's images
    /// (radiance, albedo, depth, masks), the optical and packed images and four frame buffers
    /// (peak RSS of `scene render`: 0.59 GB at 3840×2160, 2.29 GB at 7680×4320).
    public static let bytesPerPixel = 70

    /// A stopped camera looking at `scene`, set to deliver `format` at `frameRate` (default: the
    /// format's highest rate). Sizes outside `standardFormats` are allowed (tests use small
    /// frames). With `syncMarks`, each frame that holds a whole second of stream time is lit a
    /// stop brighter, the picture's half of the simulated microphone's click (`syncMarkGain`).
    /// It faces `position` (the back, unless it plays a second, front camera). Throws when the
    /// frame rate is outside the format's ranges, or when frames of that size would not fit in
    /// the machine's `MemoryBudget`.
    public init(scene: SimulatedScene, format: DeviceFormat = SimulatedCamera.defaultFormat, frameRate: Double? = nil,
                seed: UInt64 = 1, pacing: Pacing = .virtual, sensor: SensorModel = SensorModel(), bufferCount: Int = 4,
                syncMarks: Bool = false, position: DevicePosition = .back) throws {
        let needed = UInt64(format.size.pixelCount) * UInt64(SimulatedCamera.bytesPerPixel)
        guard needed <= MemoryBudget.bytes() else {
            let largest = Double(MemoryBudget.pixels(bytesPerPixel: SimulatedCamera.bytesPerPixel)) / 1e6
            throw CaptureError.invalidConfiguration("rendering \(format.size) frames takes about \(MemoryBudget.describe(bytes: needed)), "
                + "more than the \(MemoryBudget.describe(bytes: MemoryBudget.bytes())) (a quarter of this machine's memory) one image may take "
                + "— choose a size of at most \(String(format: "%.0f", largest)) Mpixel")
        }
        let settings = DeviceSettings(activeFormat: format, frameRate: frameRate)
        let standard = SimulatedCamera.standardFormats
        formats = standard.contains(format) ? standard : standard + [format]
        try settings.validate(formats: formats, capabilities: SimulatedCamera.standardCapabilities)
        self.scene = scene
        self.position = position
        self.seed = seed
        self.pacing = pacing
        self.sensor = sensor
        self.bufferCount = bufferCount
        settingsStore = DeviceSettingsStore(settings)
        let stream = try Stream(format: format, frameRate: settings.frameRate, bufferCount: bufferCount, scene: scene, sensor: sensor)
        var state = State(stream: stream)
        state.syncMarks = syncMarks
        self.state = Locked(state)
    }

    // MARK: Stream

    /// Starts the stream in the active format and frame rate, building a new buffer pool and
    /// renderer when either changed since the last start (frames of the old format stay valid).
    /// Sequence numbers and presentation times go on from where the last stream stopped. Does
    /// nothing while streaming; throws `.interrupted` while the camera is busy or removed.
    public func startStreaming() throws(CaptureError) {
        let settings = settings
        try state.withLock { (state) throws(CaptureError) in
            if let interruption = state.availability.interruption(device: uniqueID) { throw interruption }
            guard !state.isStreaming else { return }
            if !state.stream.matches(settings) {
                do {
                    state.stream = try Stream(format: settings.activeFormat, frameRate: settings.frameRate,
                                              bufferCount: bufferCount, scene: scene, sensor: sensor)
                } catch {
                    throw .deviceFailure(device: uniqueID, detail: "cannot allocate frames of \(settings.activeFormat): \(error)")
                }
            }
            state.isStreaming = true
        }
    }

    /// Stops the stream; exposure and gain requests still pending apply at once. Idempotent.
    public func stopStreaming() {
        state.withLock { $0.stop() }
    }

    /// Renders and returns the next frame, waiting for it in realtime pacing. Needs a started
    /// stream: otherwise it throws `CaptureError.deviceFailure` saying to call `startStreaming()`.
    /// Throws `.frameDropped(.outOfBuffers)` when every pooled buffer is still held (the frame is
    /// lost and its sequence number skipped), `.interrupted` while the camera is busy or removed,
    /// and `CancellationError` when the task is cancelled.
    ///
    /// In realtime pacing the sensor reads the next frame out on a thread of its own while the
    /// caller processes this one, as a real sensor does: the frame is planned when this one is
    /// delivered, and controls applied meanwhile land from the frame after it.
    public func nextFrame() async throws -> Frame {
        guard pacing == .realtime else {
            let (plan, stream) = try state.withLock { (state) throws(CaptureError) in
                try streaming(state)
                let plan = state.plan()
                state.ask(plan)
                return (plan, state.stream)
            }
            try Task.checkCancellation()
            return try render(plan, on: stream)
        }
        let readOut = try state.withLock { (state) throws(CaptureError) in
            try streaming(state)
            state.framesAwaited += 1
            let readOut = state.readAhead ?? self.readOut(state.plan(), on: state.stream)
            state.readAhead = readOut
            state.ask(readOut.plan)
            return readOut
        }
        defer { state.withLock { $0.framesAwaited -= 1 } }
        try await Task.sleep(until: readOut.plan.due, clock: .continuous)
        if let interruption = state.withLock({ $0.availability.interruption(device: uniqueID) }) { throw interruption }
        try Task.checkCancellation()
        let frame = await readOut.frame.result
        state.withLock { state in
            guard state.isStreaming, state.readAhead?.plan.index == readOut.plan.index else { return }
            state.readAhead = self.readOut(state.plan(), on: state.stream)
        }
        return try frame.get()
    }

    /// Throws unless `state` is streaming and the camera available.
    private func streaming(_ state: State) throws(CaptureError) {
        if let interruption = state.availability.interruption(device: uniqueID) { throw interruption }
        guard state.isStreaming else {
            throw .deviceFailure(device: uniqueID, detail: "the stream is not started — call startStreaming() before nextFrame()")
        }
    }

    /// Starts reading the frame of `plan` out on the camera's read-out thread.
    private func readOut(_ plan: FramePlan, on stream: Stream) -> ReadOut {
        ReadOut(plan: plan, frame: Task { [readOutWorker] in
            try await readOutWorker.perform { () throws(CaptureError) -> Frame in try self.render(plan, on: stream) }
        })
    }

    /// The frame of `plan`, rendered into a buffer of `stream`'s pool.
    private func render(_ plan: FramePlan, on stream: Stream) throws(CaptureError) -> Frame {
        guard let buffer = try? stream.pool.makeBuffer() else { throw .frameDropped(.outOfBuffers) }
        stream.renderer.withLock { renderer in
            renderer.render(plan, seed: seed, into: buffer)
        }
        return Frame(buffer: buffer, presentationTime: plan.presentationTime, sequenceNumber: plan.index, metadata: plan.metadata)
    }

    /// Whether a `nextFrame()` call is waiting for its frame's time in realtime pacing: tests act
    /// on the camera while one waits, as a user unplugs a camera a program is reading.
    var isAwaitingFrame: Bool {
        state.withLock { $0.framesAwaited > 0 }
    }

    /// What the camera saw at `frame` that a real camera cannot know: the subject, sun,
    /// moving-object and neutral masks in the frame's view (after pan and zoom), the exposure the
    /// subject should get, and the colour of its light (under the illuminant set now).
    public func groundTruth(for frame: Frame) -> SimulatedGroundTruth {
        let size = PixelSize(width: frame.buffer.width, height: frame.buffer.height)
        let time = frame.presentationTime.seconds, zoom = frame.metadata.zoomFactor, lens = frame.metadata.lensPosition
        let (stream, illuminant) = state.withLock { ($0.stream, $0.illuminant) }
        if stream.format.size == size {
            return stream.renderer.withLock { $0.groundTruth(at: time, zoom: zoom, lensPosition: lens, illuminant: illuminant) }
        }
        var renderer = Renderer(scene: scene, viewSize: size, sensor: sensor)
        return renderer.groundTruth(at: time, zoom: zoom, lensPosition: lens, illuminant: illuminant)
    }
}

/// The truth behind a simulated frame, for judging exposure: 1 marks a pixel of the mask.
public struct SimulatedGroundTruth: Sendable {
    public let size: PixelSize
    public let subjectMask: [UInt8]
    public let sunMask: [UInt8]
    /// Where the scene's moving object is in this frame (all 0 in a scene without one).
    public let objectMask: [UInt8]
    /// The grey surfaces lit by the subject's light alone (`SimulatedScene.subjectLight`): what
    /// renders neutral when the white balance is right.
    public let neutralMask: [UInt8]
    /// The colour of the subject's light as the sensor sees it (the scene's `subjectLight` under
    /// the illuminant), linear RGB of unit Rec. 709 luminance: white-balance gains proportional
    /// to its inverse make the neutral mask grey.
    public let subjectLight: SIMD3<Double>
    /// The exposure the subject should get, in EV relative to mid-grey.
    public let subjectIntent: Double

    /// Without `neutralMask` no surface is known to be grey; without `subjectLight` the light is white.
    public init(size: PixelSize, subjectMask: [UInt8], sunMask: [UInt8], objectMask: [UInt8], neutralMask: [UInt8]? = nil,
                subjectLight: SIMD3<Double> = SIMD3(repeating: 1), subjectIntent: Double) {
        (self.size, self.subjectMask, self.sunMask, self.objectMask, self.subjectIntent) = (size, subjectMask, sunMask, objectMask, subjectIntent)
        self.neutralMask = neutralMask ?? [UInt8](repeating: 0, count: subjectMask.count)
        self.subjectLight = subjectLight
    }
}
