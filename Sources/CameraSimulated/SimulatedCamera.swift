import CameraCapture
import CameraCore
import Synchronization

/// A camera that renders a `SimulatedScene` through a physical sensor model.
///
/// It behaves like a real sensor: exposure and gain requests take effect a frame or two late (and
/// each frame's metadata tells the settings actually used), exposures longer than a frame stretch
/// the frame, frames come from a small pool and are dropped when it runs dry. It is paced by the
/// wall clock or runs as fast as frames are asked for, and for a given seed it is deterministic to
/// the byte.
///
/// ```swift
/// let camera = try SimulatedCamera(scene: .backlitPortrait)
/// try camera.requestExposure(duration: MediaTime(value: 1, timescale: 500))
/// let frame = try await camera.captureFrame()
/// ```
public final class SimulatedCamera: CaptureDevice {
    /// How frames are paced.
    public enum Pacing: String, Sendable {
        /// One frame per frame duration of wall-clock time.
        case realtime
        /// As fast as `captureFrame()` is called; time advances by the frame duration.
        case virtual
    }

    public let scene: SimulatedScene
    public let activeFormat: DeviceFormat
    public let frameRate: Double
    public let seed: UInt64
    public let pacing: Pacing
    public let sensor: SensorModel
    public var uniqueID: String { "sim:\(scene.name)" }
    public var localizedName: String { "Simulated camera (\(scene.name))" }
    public var position: DevicePosition { .back }
    public var formats: [DeviceFormat] { SimulatedCamera.standardFormats }
    public var capabilities: DeviceCapabilities { SimulatedCamera.standardCapabilities }

    /// Seconds between the exposure start of one row and the next.
    public let rowReadoutTime: Double
    private let frameDuration: MediaTime
    private let pool: BufferPool
    private let controls: Mutex<Controls>
    private let renderer: Mutex<Renderer>

    /// A camera looking at `scene`, delivering `format` at `frameRate` (default: the format's
    /// highest rate). Sizes outside `standardFormats` are allowed (tests use small frames).
    public init(scene: SimulatedScene, format: DeviceFormat = SimulatedCamera.defaultFormat, frameRate: Double? = nil,
                seed: UInt64 = 1, pacing: Pacing = .virtual, sensor: SensorModel = SensorModel(), bufferCount: Int = 4) throws {
        let rate = frameRate ?? format.maximumFrameRate
        guard format.supports(frameRate: rate) else {
            let range = format.frameRateRanges.first.map { $0.minimum...$0.maximum } ?? 0...0
            throw ValueOutOfRangeError(setting: "frame rate for \(format.size)", value: rate, range: range, unit: "fps")
        }
        self.scene = scene
        activeFormat = format
        self.frameRate = rate
        self.seed = seed
        self.pacing = pacing
        self.sensor = sensor
        frameDuration = MediaTime.frameDuration(forRate: rate)
        rowReadoutTime = 0.8 / format.maximumFrameRate / Double(format.size.height)
        pool = try BufferPool(format: format.pixelFormat, width: format.size.width, height: format.size.height, capacity: bufferCount)
        let initialExposure = MediaTime(value: 1, timescale: Int32(max(rate.rounded(.up), 1)) * 2)
        controls = Mutex(Controls(pipeline: ControlPipeline(exposure: initialExposure, gain: 1)))
        renderer = Mutex(Renderer(scene: scene, viewSize: format.size, sensor: sensor))
    }

    // MARK: Controls

    /// Asks for an exposure time; it applies two frames after the current one.
    public func requestExposure(duration: MediaTime) throws(ValueOutOfRangeError) {
        _ = try ValueOutOfRangeError.check(duration.seconds, in: capabilities.exposureDuration, setting: "exposure duration", unit: "s")
        controls.withLock { $0.pipeline.request(exposure: duration, nextFrame: $0.nextFrame) }
    }

    /// Asks for an analogue gain; it applies one frame after the current one.
    public func requestGain(_ gain: Double) throws(ValueOutOfRangeError) {
        _ = try ValueOutOfRangeError.check(gain, in: capabilities.analogueGain, setting: "analogue gain")
        controls.withLock { $0.pipeline.request(gain: gain, nextFrame: $0.nextFrame) }
    }

    /// Records the exposure compensation for the exposure engine (it appears in frame metadata).
    public func setExposureBias(_ ev: Double) throws(ValueOutOfRangeError) {
        let value = try ValueOutOfRangeError.check(ev, in: capabilities.exposureBias, setting: "exposure bias", unit: "EV")
        controls.withLock { $0.exposureBias = value }
    }

    /// Moves the focus: 0 is the nearest distance (10 cm), 1 infinity.
    public func setLensPosition(_ position: Double) throws(ValueOutOfRangeError) {
        let value = try ValueOutOfRangeError.check(position, in: capabilities.lensPosition, setting: "lens position")
        controls.withLock { $0.lensPosition = value }
    }

    public func setZoomFactor(_ factor: Double) throws(ValueOutOfRangeError) {
        let value = try ValueOutOfRangeError.check(factor, in: capabilities.zoomFactor, setting: "zoom factor", unit: "x")
        controls.withLock { $0.zoomFactor = value }
    }

    public func setWhiteBalanceGains(_ gains: WhiteBalanceGains) throws(ValueOutOfRangeError) {
        let range = SimulatedCamera.whiteBalanceGainRange
        _ = try ValueOutOfRangeError.check(gains.red, in: range, setting: "red white-balance gain")
        _ = try ValueOutOfRangeError.check(gains.green, in: range, setting: "green white-balance gain")
        _ = try ValueOutOfRangeError.check(gains.blue, in: range, setting: "blue white-balance gain")
        controls.withLock { $0.whiteBalance = gains }
    }

    public func setDigitalGain(_ gain: Double) throws(ValueOutOfRangeError) {
        let value = try ValueOutOfRangeError.check(gain, in: SimulatedCamera.digitalGainRange, setting: "digital gain")
        controls.withLock { $0.digitalGain = value }
    }

    public func setFlicker(_ mode: FlickerMode) {
        controls.withLock { $0.flicker = mode }
    }

    /// Lights the scene with a black body at `temperature` kelvin (`ColourTemperature.range`,
    /// 2000…12000 K), or with its own light for nil (the default). Each channel of the scene's
    /// radiance is scaled by the light's RGB relative to 6500 K at unit luminance, so exposure is
    /// unchanged and only colour moves; the camera's white balance has to undo it. Applies from
    /// the next frame scheduled.
    public func setIlluminant(temperature: Double?) throws(ValueOutOfRangeError) {
        if let temperature {
            _ = try ValueOutOfRangeError.check(temperature, in: ColourTemperature.range, setting: "illuminant colour temperature", unit: "K")
        }
        let scale = Illuminant.channelScale(temperature: temperature)
        controls.withLock { $0.illuminant = scale }
    }

    /// Torch level 0 (off) … 1 (full power).
    public func setTorchLevel(_ level: Double) throws(ValueOutOfRangeError) {
        let value = try ValueOutOfRangeError.check(level, in: 0...1, setting: "torch level")
        controls.withLock { $0.torchLevel = value }
    }

    /// The exposure time and gain most recently requested (they may not be in effect yet).
    public var requestedExposure: (exposure: MediaTime, gain: Double) {
        controls.withLock { $0.pipeline.requested }
    }

    // MARK: Frames

    /// Captures the next frame: waits for it in realtime pacing, renders it and returns it.
    /// Throws `BufferPoolError.outOfBuffers` when every pooled buffer is still held (the frame
    /// is dropped; its sequence number is skipped) and `CancellationError` when cancelled.
    public func captureFrame() async throws -> Frame {
        let plan = controls.withLock { $0.plan(frameDuration: frameDuration, rowReadoutTime: rowReadoutTime) }
        if pacing == .realtime {
            let due = plan.startInstant.advanced(by: .seconds(plan.presentationTime.seconds + plan.duration.seconds))
            try await Task.sleep(until: due, clock: .continuous)
        }
        try Task.checkCancellation()
        let buffer = try pool.makeBuffer()
        renderer.withLock { renderer in
            renderer.render(plan, seed: seed, into: buffer)
        }
        return Frame(buffer: buffer, presentationTime: plan.presentationTime, sequenceNumber: plan.index, metadata: plan.metadata)
    }

    /// What the camera saw at `frame` that a real camera cannot know: the subject and sun masks
    /// in the frame's view (after pan and zoom), and the exposure the subject should get.
    public func groundTruth(for frame: Frame) -> SimulatedGroundTruth {
        renderer.withLock { $0.groundTruth(at: frame.presentationTime.seconds, zoom: frame.metadata.zoomFactor) }
    }
}

/// The truth behind a simulated frame, for judging exposure: 1 marks a pixel of the mask.
public struct SimulatedGroundTruth: Sendable {
    public let size: PixelSize
    public let subjectMask: [UInt8]
    public let sunMask: [UInt8]
    /// The exposure the subject should get, in EV relative to mid-grey.
    public let subjectIntent: Double
}
