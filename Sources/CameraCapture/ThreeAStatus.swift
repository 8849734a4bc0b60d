import CameraCore
import CameraExposure
import CameraMetering

/// Where the 3A engine stood after a frame, and the modes it ran in: what a viewfinder shows next
/// to the image and what a photo's EXIF records.
public struct ThreeAStatus: Sendable, Hashable {
    public var exposureState: AEState
    /// The metered exposure error in EV (positive: over-exposed).
    public var exposureError: Double
    /// The exposure compensation in effect, in EV (mid-ramp after a change).
    public var exposureBias: Double
    /// The shadows control in effect (`DeviceSettings.shadows`), −2…2.
    public var shadows: Double
    public var exposureMode: AutoExposure.Mode
    public var meteringMode: MeteringMode
    /// The tap-to-meter point, nil while the engine finds the subject itself.
    public var exposurePoint: NormalizedPoint?
    public var focusState: FocusState
    public var focusPoint: NormalizedPoint
    public var whiteBalanceState: AutoWhiteBalance.State
    public var whiteBalanceMode: WhiteBalanceMode
    public var locks: ThreeAControls.Locks
    /// Mains flicker seen as moving bands between the last two frames (100 or 120 Hz), or nil.
    public var flicker: Double?
    /// Why the exposure watchdog last restarted auto-exposure (`AutoExposure.watchdogReason`), or
    /// nil when it never had to.
    public var watchdogReason: String?
    /// How the frame's picture was rendered: the exposure's lift of the subject.
    public var renderGain: RenderGain
    /// What the exposure was set for, normalised (`AutoExposure.subjectRegion`), or nil.
    public var subjectRegion: NormalizedRect?
    /// EV of exposure the subject lacks above the sensor's noise floor at the longest exposure the
    /// highlights allow (`ExposureConstraints.shortfall`): how much longer a bracket's frame would
    /// have to be to hold it.
    public var exposureShortfall: Double

    public init(exposureState: AEState, exposureError: Double, exposureBias: Double, shadows: Double = 0, exposureMode: AutoExposure.Mode = .continuousAuto,
                meteringMode: MeteringMode = .sunAware, exposurePoint: NormalizedPoint? = nil,
                focusState: FocusState, focusPoint: NormalizedPoint = .center,
                whiteBalanceState: AutoWhiteBalance.State, whiteBalanceMode: WhiteBalanceMode = .auto,
                locks: ThreeAControls.Locks = ThreeAControls.Locks(ae: false, af: false, awb: false), flicker: Double? = nil,
                watchdogReason: String? = nil, renderGain: RenderGain = .none, subjectRegion: NormalizedRect? = nil,
                exposureShortfall: Double = 0) {
        self.exposureState = exposureState
        self.exposureError = exposureError
        self.exposureBias = exposureBias
        self.shadows = shadows
        self.exposureMode = exposureMode
        self.meteringMode = meteringMode
        self.exposurePoint = exposurePoint
        self.focusState = focusState
        self.focusPoint = focusPoint
        self.whiteBalanceState = whiteBalanceState
        self.whiteBalanceMode = whiteBalanceMode
        self.locks = locks
        self.flicker = flicker
        self.watchdogReason = watchdogReason
        self.renderGain = renderGain
        self.subjectRegion = subjectRegion
        self.exposureShortfall = exposureShortfall
    }

    /// Exposure and white balance have stopped moving: a frame a photo can be taken from, with the
    /// look the viewfinder settles on (a locked or manual loop counts as settled).
    public var isSettled: Bool {
        exposureState != .searching && whiteBalanceState != .searching
    }

    /// The exposure engine has settled on the subject it found itself, with no compensation: a
    /// bright or dark frame is then its choice (snow, a night street, a backlit person), not a fault.
    public var exposedForSubject: Bool {
        exposureState == .converged && meteringMode == .sunAware && exposurePoint == nil && abs(exposureBias) < 0.05
    }
}
