import CameraCapture
import CameraCore
import CameraSimulated
import Foundation

/// A simulated camera that loses the controls of one exposure, as a device whose controls do not
/// queue per frame (or a driver that refuses a value) does: once armed, the `change`-th time the
/// exposure asked for moves by more than a stop, and the next `times − 1` asks for that same
/// exposure, never reach the sensor. Everything else is the simulated camera's.
final class ExposureDroppingCamera: CaptureDevice {
    let base: SimulatedCamera
    private let state = Locked(State())

    private struct State {
        var armed: (change: Int, times: Int)?
        var changes = 0
        /// The total exposure (duration × gains) last asked for.
        var last: Double?
        /// The exposure being dropped, and how many more asks for it are.
        var dropping: (exposure: Double, left: Int)?

        /// Whether controls asking for `exposure` are dropped.
        mutating func drops(_ exposure: Double) -> Bool {
            defer { last = exposure }
            if let armed, let last, abs(log2(exposure / last)) > 1 {
                changes += 1
                if changes == armed.change { dropping = (exposure, armed.times) }
            }
            guard let (dropped, left) = dropping, left > 0, abs(exposure / dropped - 1) < 0.01 else { return false }
            dropping?.left = left - 1
            return true
        }
    }

    init(_ base: SimulatedCamera) {
        self.base = base
    }

    /// From now on, drops the `change`-th change of exposure and `times − 1` asks for it after (`Int.max`: all of them).
    func arm(droppingChange change: Int, times: Int) {
        state.withLock { $0.armed = (change, times) }
    }

    var uniqueID: String { base.uniqueID }
    var localizedName: String { base.localizedName }
    var position: DevicePosition { base.position }
    var formats: [DeviceFormat] { base.formats }
    var capabilities: DeviceCapabilities { base.capabilities }
    var authorization: AuthorizationStatus { base.authorization }
    var settingsStore: DeviceSettingsStore { base.settingsStore }
    var deliversInRealTime: Bool { base.deliversInRealTime }

    func startStreaming() throws(CaptureError) { try base.startStreaming() }
    func stopStreaming() { base.stopStreaming() }
    func nextFrame() async throws -> Frame { try await base.nextFrame() }

    func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        let total = controls.exposureDuration * controls.analogueGain * controls.digitalGain
        guard !state.withLock({ $0.drops(total) }) else { return }
        try base.apply(controls)
    }
}
