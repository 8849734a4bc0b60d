import CameraCapture
import CameraCore
import CameraMovie

/// A video file as a camera (`--source file:PATH`): each frame decoded in turn as nv12 with the
/// file's own timestamps, paced to them in real time (or as fast as the session takes frames),
/// from the start again after the last one, or ending there (`CaptureError.ended`). Its exposure
/// is the file's: the capabilities hold exposure and gain fixed, so the auto-exposure places the
/// subject with the render gain alone, and metering, advice, the viewfinder, photos and recording
/// work as on any camera. Its sound (`FileSound`) goes with the pictures into takes and streams.
public final class VideoFileCamera: CaptureDevice {
    public let path: String
    /// Whether frames wait for their time on the wall clock.
    public let realtime: Bool
    /// Whether the file plays again after its last frame; otherwise the stream ends there.
    public let loops: Bool
    public let formats: [DeviceFormat]
    public let capabilities: DeviceCapabilities
    public let settingsStore: DeviceSettingsStore
    public var uniqueID: String { "file:\(path)" }
    public var localizedName: String { "Video file (\(path.split(separator: "/").last.map(String.init) ?? path))" }
    public var position: DevicePosition { .unspecified }
    public var deliversInRealTime: Bool { realtime }
    /// A file that opened can be read.
    public var authorization: AuthorizationStatus { .authorized }

    /// The decoder, the stream's clock and the controls last applied, behind one lock.
    private struct State {
        let reader: VideoFileReader
        let pool: BufferPool
        var isStreaming = false
        var nextSequence: UInt64 = 0
        /// Seconds added to the file's timestamps: the length of the passes already played.
        var passOffset = 0.0
        /// The last frame's stream time, and where the next pass starts: one frame later, at the
        /// spacing of the last two frames (the file's own, which its nominal rate may round).
        var last: Double?
        var end = 0.0
        /// The wall-clock instant of stream time zero (realtime pacing), set by the first frame.
        var origin: ContinuousClock.Instant?
        var controls: SensorControls
    }

    private let state: Locked<State>
    /// Frames that may be out with the session at once.
    static let bufferCount = 4
    /// The ISO the frames are said to be shot at: a file does not say.
    static let baseISO = 100.0

    /// Opens `path`; throws `CaptureError.deviceFailure` naming the file and what is wrong with it.
    public init(path: String, realtime: Bool, loops: Bool = true) throws(CaptureError) {
        let reader: VideoFileReader
        let pool: BufferPool
        do {
            reader = try VideoFileReader(path: path)
            pool = try BufferPool(format: .nv12(.video), width: reader.size.width, height: reader.size.height, capacity: Self.bufferCount)
        } catch {
            throw .deviceFailure(device: "file:\(path)", detail: "\(error)")
        }
        self.path = path
        self.realtime = realtime
        self.loops = loops
        let rate = reader.frameRate
        let format = DeviceFormat(size: reader.size, pixelFormat: .nv12(.video), frameRateRanges: [FrameRateRange(minimum: rate, maximum: rate)])
        formats = [format]
        capabilities = DeviceCapabilities(exposureDuration: (1 / rate)...(1 / rate), analogueGain: 1...1, baseISO: Self.baseISO,
                                          exposureBias: -8...8, zoomFactor: 1...1, lensPosition: 1...1, hasTorch: false, hasFlash: false)
        settingsStore = DeviceSettingsStore(DeviceSettings(activeFormat: format, frameRate: rate))
        state = Locked(State(reader: reader, pool: pool, controls: SensorControls(exposureDuration: 1 / rate, analogueGain: 1)))
    }

    public func startStreaming() throws(CaptureError) {
        state.withLock { $0.isStreaming = true }
    }

    public func stopStreaming() {
        state.withLock { state in
            state.isStreaming = false
            state.origin = nil
        }
    }

    public func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        try controls.validate(within: capabilities)
        state.withLock { $0.controls = controls }
    }

    public func nextFrame() async throws -> Frame {
        let frame = try state.withLock { state throws -> (Frame, due: ContinuousClock.Instant?) in
            guard state.isStreaming else {
                throw CaptureError.deviceFailure(device: uniqueID, detail: "the stream is not started — call startStreaming() before nextFrame()")
            }
            guard let buffer = try? state.pool.makeBuffer() else { throw CaptureError.frameDropped(.outOfBuffers) }
            guard let time = try Self.read(into: buffer, &state, device: uniqueID, loops: loops) else {
                throw CaptureError.ended(device: uniqueID)
            }
            let rate = settingsStore.settings.frameRate
            let spacing = state.last.map { time - $0 }.flatMap { $0 > 0 ? $0 : nil } ?? 1 / rate
            (state.last, state.end) = (time, time + spacing)
            let origin = state.origin ?? ContinuousClock.now.advanced(by: .seconds(-time))
            state.origin = origin
            let metadata = FrameMetadata(exposureDuration: MediaTime(seconds: 1 / rate, preferredTimescale: 1_000_000), analogueGain: 1,
                                         baseISO: Self.baseISO, exposureBias: state.controls.exposureBias)
            let frame = Frame(buffer: buffer, presentationTime: MediaTime(seconds: time, preferredTimescale: 90_000),
                              sequenceNumber: state.nextSequence, metadata: metadata)
            state.nextSequence += 1
            return (frame, realtime ? origin.advanced(by: .seconds(time)) : nil)
        }
        if let due = frame.due { try await Task.sleep(until: due, clock: .continuous) }
        try Task.checkCancellation()
        return frame.0
    }

    /// The next frame of the file into `buffer`, from the start again after the last one when
    /// `loops`; its stream time (passes already played included), nil at the end of the file.
    private static func read(into buffer: PixelBuffer, _ state: inout State, device: String, loops: Bool) throws(CaptureError) -> Double? {
        do {
            if let time = try state.reader.read(into: buffer) { return state.passOffset + time }
            guard loops else { return nil }
            try state.reader.rewind()
            state.passOffset = state.end
            guard let time = try state.reader.read(into: buffer) else {
                throw MovieError("\(state.reader.path) has no frame to play")
            }
            return state.passOffset + time
        } catch {
            throw .deviceFailure(device: device, detail: "\(error)")
        }
    }
}
