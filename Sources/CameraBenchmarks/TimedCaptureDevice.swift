import CameraCapture
import CameraCore

/// A camera that notes when each of its frames was captured (handed to the session), so that a
/// benchmark can follow a frame from the camera to the viewer — and, `stamping`, draws each
/// frame's number into its picture (`FrameStamp`, bgra8 or raw frames) to follow it through an encoder
/// and a streaming server. Everything else is the wrapped camera's: its settings, controls and frames.
final class TimedCaptureDevice: CaptureDevice {
    let base: any CaptureDevice
    private let stamping: Bool
    /// Capture instants by sequence number, the most recent `capacity` frames.
    private let times = Locked<[UInt64: ContinuousClock.Instant]>([:])
    private let capacity = 1024

    init(_ base: any CaptureDevice, stamping: Bool = false) {
        self.base = base
        self.stamping = stamping
    }

    /// When frame `sequenceNumber` was captured, if it is among the recent ones.
    func captureTime(of sequenceNumber: UInt64) -> ContinuousClock.Instant? {
        times.withLock { $0[sequenceNumber] }
    }

    /// When the recent frame whose stamp reads `stamp` was captured (the stamp is the sequence
    /// number's low 16 bits, and `capacity` frames are far fewer than 65 536).
    func captureTime(ofStamp stamp: UInt16) -> ContinuousClock.Instant? {
        times.withLock { times in times.first { UInt16(truncatingIfNeeded: $0.key) == stamp }?.value }
    }

    /// The newest frame's sequence number, 0 before the first.
    var latestSequenceNumber: UInt64 {
        times.withLock { $0.keys.max() ?? 0 }
    }

    var uniqueID: String { base.uniqueID }
    var localizedName: String { base.localizedName }
    var position: DevicePosition { base.position }
    var formats: [DeviceFormat] { base.formats }
    var capabilities: DeviceCapabilities { base.capabilities }
    var authorization: AuthorizationStatus { base.authorization }
    var settingsStore: DeviceSettingsStore { base.settingsStore }

    func startStreaming() throws(CaptureError) { try base.startStreaming() }
    func stopStreaming() { base.stopStreaming() }
    func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) { try base.apply(controls) }

    func nextFrame() async throws -> Frame {
        let frame = try await base.nextFrame()
        if stamping { FrameStamp.draw(UInt16(truncatingIfNeeded: frame.sequenceNumber), into: frame.buffer) }
        let now = ContinuousClock.now
        times.withLock { times in
            times[frame.sequenceNumber] = now
            if frame.sequenceNumber >= UInt64(capacity) { times[frame.sequenceNumber - UInt64(capacity)] = nil }
        }
        return frame
    }
}
