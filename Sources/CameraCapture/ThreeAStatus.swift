import CameraExposure

/// Where the 3A engine stood after a frame: what a viewfinder shows next to the image.
public struct ThreeAStatus: Sendable, Hashable {
    public var exposureState: AEState
    /// The metered exposure error in EV (positive: over-exposed).
    public var exposureError: Double
    /// The exposure compensation in effect, in EV (mid-ramp after a change).
    public var exposureBias: Double
    public var focusState: FocusState
    public var whiteBalanceState: AutoWhiteBalance.State

    public init(exposureState: AEState, exposureError: Double, exposureBias: Double,
                focusState: FocusState, whiteBalanceState: AutoWhiteBalance.State) {
        self.exposureState = exposureState
        self.exposureError = exposureError
        self.exposureBias = exposureBias
        self.focusState = focusState
        self.whiteBalanceState = whiteBalanceState
    }
}
