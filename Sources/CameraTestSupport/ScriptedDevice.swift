import CameraCapture
import CameraCore
import Foundation

/// A camera for tests that needs no hardware and no renderer: it films a uniform grey surface of
/// `sceneLuminance` cd/m², so the frame's level follows the exposure the session applies (and
/// auto-exposure can converge through a session), on a virtual clock (frame n is presented at
/// n frame durations), from a bounded `BufferPool`.
///
/// Tests script it: how many frames it may capture (`allowFrames`), when it becomes busy or
/// disappears (`setAvailability`), and failures to inject (`failNextFrame`, `failNextStart`).
/// They observe it: frames captured, buffers in use, the controls applied.
public final class ScriptedDevice: CaptureDevice {
    /// Whether the camera can be used.
    public enum Availability: Sendable, Hashable {
        case available
        /// Another process holds it: streaming fails with `deviceInUseByAnotherClient`.
        case busy
        /// Unplugged: streaming fails with `deviceRemoved`.
        case removed
    }

    public let uniqueID: String
    public let localizedName: String
    public let position: DevicePosition
    public let formats: [DeviceFormat]
    public let capabilities: DeviceCapabilities
    public let authorization: AuthorizationStatus
    public let settingsStore: DeviceSettingsStore
    /// Buffers per pool: the most frames that can be held at once.
    public let poolCapacity: Int
    /// Sequence numbers skipped when streaming resumes after an interruption (the frames the
    /// camera would have taken meanwhile).
    public let framesLostPerInterruption: UInt64

    /// The aperture in frame metadata; with it the frame level obeys the meter equation.
    public static let fNumber = 2.0

    private let state: Locked<State>

    /// A camera offering `formats` (gray8 and bgra8 are rendered; other formats fail to stream),
    /// starting in the first. `frameBudget` is how many frames it may capture before waiting for
    /// `allowFrames` (nil: no limit); frames lost for want of a buffer count against it too.
    public init(uniqueID: String = "scripted:0", position: DevicePosition = .back,
                formats: [DeviceFormat] = ScriptedDevice.standardFormats,
                capabilities: DeviceCapabilities = ScriptedDevice.standardCapabilities,
                authorization: AuthorizationStatus = .authorized, poolCapacity: Int = 4,
                sceneLuminance: Double = 100, frameBudget: Int? = nil, framesLostPerInterruption: UInt64 = 3) {
        precondition(!formats.isEmpty, "a scripted device needs at least one format")
        self.uniqueID = uniqueID
        localizedName = "Scripted camera \(uniqueID)"
        self.position = position
        self.formats = formats
        self.capabilities = capabilities
        self.authorization = authorization
        self.poolCapacity = poolCapacity
        self.framesLostPerInterruption = framesLostPerInterruption
        settingsStore = DeviceSettingsStore(DeviceSettings(activeFormat: formats[0]))
        state = Locked(State(sceneLuminance: sceneLuminance, frameBudget: frameBudget))
    }

    /// 32x24 gray8 up to 60 fps, 64x48 bgra8 up to 30 fps, 1280x720 gray8 up to 30 fps: the small
    /// ones first, so that debug-build tests analyse frames quickly.
    public static let standardFormats = [
        DeviceFormat(size: PixelSize(width: 32, height: 24), pixelFormat: .gray8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 60)]),
        DeviceFormat(size: PixelSize(width: 64, height: 48), pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)]),
        DeviceFormat(size: PixelSize(width: 1280, height: 720), pixelFormat: .gray8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)]),
    ]

    /// 1/8000…1/4 s, analogue gain 1…16, digital gain 1…4, ISO 100, ±4 EV, a focusing lens, no torch.
    public static let standardCapabilities = DeviceCapabilities(
        exposureDuration: (1.0 / 8000)...(1.0 / 4), analogueGain: 1...16, digitalGain: 1...4, baseISO: 100,
        exposureBias: -4...4, zoomFactor: 1...4, lensPosition: 0...1, hasTorch: false, hasFlash: false)

    // MARK: Script

    /// Lets the camera capture `count` more frames.
    public func allowFrames(_ count: Int) {
        state.withLock { $0.frameBudget = ($0.frameBudget ?? 0) + count }
    }

    public func setAvailability(_ availability: Availability) {
        state.withLock { $0.availability = availability }
    }

    /// Changes the brightness of the filmed surface from the next frame on.
    public func setSceneLuminance(_ luminance: Double) {
        state.withLock { $0.sceneLuminance = luminance }
    }

    /// The next `nextFrame()` throws `error` once.
    public func failNextFrame(with error: CaptureError) {
        state.withLock { $0.nextFrameFailure = error }
    }

    /// The next `startStreaming()` throws `error` once.
    public func failNextStart(with error: CaptureError) {
        state.withLock { $0.nextStartFailure = error }
    }

    // MARK: Observation

    /// Frames handed to the session since the device was made.
    public var framesCaptured: Int { state.withLock { $0.framesCaptured } }
    /// Frames lost because every buffer of the pool was held.
    public var framesLostForBuffers: Int { state.withLock { $0.framesLostForBuffers } }
    /// Successful `startStreaming()` calls.
    public var streamStarts: Int { state.withLock { $0.streamStarts } }
    public var isStreaming: Bool { state.withLock { $0.isStreaming } }
    /// Pool buffers still referenced by anyone.
    public var buffersInUse: Int { state.withLock { $0.pools.values.reduce(0) { $0 + $1.buffersInUse } } }
    /// The most buffers ever in use at once, counted as each frame is captured.
    public var peakBuffersInUse: Int { state.withLock { $0.peakBuffersInUse } }
    /// The controls of the latest `apply`, if any.
    public var appliedControls: SensorControls? { state.withLock { $0.appliedControls } }

    // MARK: CaptureDevice

    public func startStreaming() throws(CaptureError) {
        try state.withLock { state throws(CaptureError) in
            if let failure = state.nextStartFailure {
                state.nextStartFailure = nil
                throw failure
            }
            if let error = state.unavailableError(uniqueID) {
                state.wasInterrupted = true
                throw error
            }
            state.nextSequence = state.wasInterrupted ? state.nextSequence + framesLostPerInterruption : 0
            state.wasInterrupted = false
            state.isStreaming = true
            state.streamStarts += 1
        }
    }

    public func stopStreaming() {
        state.withLock { $0.isStreaming = false }
    }

    public func nextFrame() async throws -> Frame {
        while true {
            try Task.checkCancellation()
            if let frame = try capture() { return frame }
            // Out of budget: wait for `allowFrames` (or an availability change) like a stalled camera.
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Takes controls within `capabilities`; a flash request fails, as on any camera without one.
    public func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        try controls.validate(within: capabilities)
        state.withLock { $0.appliedControls = controls }
    }

    /// One frame, or nil when the budget is spent; throws what a real camera would.
    private func capture() throws -> Frame? {
        let settings = settingsStore.settings
        return try state.withLock { state throws -> Frame? in
            if let failure = state.nextFrameFailure {
                state.nextFrameFailure = nil
                throw failure
            }
            if let error = state.unavailableError(uniqueID) {
                state.wasInterrupted = true
                throw error
            }
            guard state.isStreaming else {
                throw CaptureError.deviceFailure(device: uniqueID, detail: "not streaming — call startStreaming() first")
            }
            if let budget = state.frameBudget {
                guard budget > 0 else { return nil }
                state.frameBudget = budget - 1
            }
            let sequence = state.nextSequence
            state.nextSequence += 1
            let pool = try state.pool(for: settings.activeFormat, capacity: poolCapacity)
            let buffer: PixelBuffer
            do {
                buffer = try pool.makeBuffer()
            } catch {
                state.framesLostForBuffers += 1
                throw CaptureError.frameDropped(.outOfBuffers)
            }
            let controls = state.appliedControls ?? SensorControls(exposureDuration: 1.0 / 120, analogueGain: 1)
            let metadata = FrameMetadata(
                exposureDuration: MediaTime(seconds: controls.exposureDuration, preferredTimescale: 1_000_000),
                analogueGain: controls.analogueGain, baseISO: capabilities.baseISO, digitalGain: controls.digitalGain,
                exposureBias: controls.exposureBias, lensPosition: controls.lensPosition, whiteBalanceGains: controls.whiteBalance,
                zoomFactor: controls.zoomFactor, flicker: controls.flicker, fNumber: Self.fNumber)
            try SurfaceRenderer.fill(buffer, linear: Self.linearLevel(luminance: state.sceneLuminance, metadata: metadata),
                                     gains: controls.whiteBalance, device: uniqueID)
            state.framesCaptured += 1
            state.peakBuffersInUse = max(state.peakBuffersInUse, state.pools.values.reduce(0) { $0 + $1.buffersInUse })
            let presentationTime = MediaTime.frameDuration(forRate: settings.frameRate).multiplied(by: Int64(sequence))
            return Frame(buffer: buffer, presentationTime: presentationTime, sequenceNumber: sequence, metadata: metadata)
        }
    }

    /// The linear level (0…1, before clipping) of a surface of `luminance` cd/m² exposed as in
    /// `metadata`: the reflected-light meter equation solved for the level, so mid-grey 0.18 is
    /// what a meter reading of `luminance` asks for.
    public static func linearLevel(luminance: Double, metadata: FrameMetadata) -> Double {
        0.18 * luminance * metadata.exposureDuration.seconds * metadata.iso * metadata.digitalGain / (12.5 * fNumber * fNumber)
    }
}

extension ScriptedDevice {
    /// The device's mutable state, behind its mutex.
    private struct State {
        var availability = Availability.available
        var sceneLuminance: Double
        var frameBudget: Int?
        var nextFrameFailure: CaptureError?
        var nextStartFailure: CaptureError?
        var isStreaming = false
        var wasInterrupted = false
        var nextSequence: UInt64 = 0
        var appliedControls: SensorControls?
        var pools: [DeviceFormat: BufferPool] = [:]
        var framesCaptured = 0
        var framesLostForBuffers = 0
        var streamStarts = 0
        var peakBuffersInUse = 0

        init(sceneLuminance: Double, frameBudget: Int?) {
            self.sceneLuminance = sceneLuminance
            self.frameBudget = frameBudget
        }

        func unavailableError(_ device: String) -> CaptureError? {
            switch availability {
            case .available: nil
            case .busy: .interrupted(.deviceInUseByAnotherClient, detail: "\(device) is busy (scripted)")
            case .removed: .interrupted(.deviceRemoved, detail: "\(device) was removed (scripted)")
            }
        }

        /// The pool for `format`, made on first use and kept, so its buffers are counted after a stream.
        mutating func pool(for format: DeviceFormat, capacity: Int) throws -> BufferPool {
            if let pool = pools[format] { return pool }
            let pool = try BufferPool(format: format.pixelFormat, width: format.size.width, height: format.size.height, capacity: capacity)
            pools[format] = pool
            return pool
        }
    }
}
