import CameraCore

/// What a device can be set to. Setting a value outside a range is a thrown
/// `ValueOutOfRangeError` naming the range.
public struct DeviceCapabilities: Sendable, Hashable {
    /// Exposure durations in seconds.
    public var exposureDuration: ClosedRange<Double>
    /// Analogue gain (1 = base sensitivity).
    public var analogueGain: ClosedRange<Double>
    /// Gain applied after read-out when the analogue gain is exhausted (1…1 when there is none).
    public var digitalGain: ClosedRange<Double>
    /// The ISO speed at analogue gain 1.
    public var baseISO: Double
    /// Exposure compensation in EV.
    public var exposureBias: ClosedRange<Double>
    public var zoomFactor: ClosedRange<Double>
    /// 0 = nearest focus, 1 = infinity.
    public var lensPosition: ClosedRange<Double>
    public var hasTorch: Bool
    public var hasFlash: Bool

    public init(exposureDuration: ClosedRange<Double>, analogueGain: ClosedRange<Double>, digitalGain: ClosedRange<Double> = 1...1, baseISO: Double,
                exposureBias: ClosedRange<Double>, zoomFactor: ClosedRange<Double>,
                lensPosition: ClosedRange<Double>, hasTorch: Bool, hasFlash: Bool) {
        self.exposureDuration = exposureDuration
        self.analogueGain = analogueGain
        self.digitalGain = digitalGain
        self.baseISO = baseISO
        self.exposureBias = exposureBias
        self.zoomFactor = zoomFactor
        self.lensPosition = lensPosition
        self.hasTorch = hasTorch
        self.hasFlash = hasFlash
    }

    /// ISO speeds matching the analogue gain range.
    public var iso: ClosedRange<Double> {
        (analogueGain.lowerBound * baseISO)...(analogueGain.upperBound * baseISO)
    }
}
