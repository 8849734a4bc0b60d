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
    /// The step exposure durations are set in, from the shortest (100 µs on V4L2), or 0 when any
    /// duration in the range is set as asked.
    public var exposureDurationStep: Double
    /// The step analogue gain is set in, from the lowest, or 0 when any gain in the range is set as asked.
    public var analogueGainStep: Double

    public init(exposureDuration: ClosedRange<Double>, analogueGain: ClosedRange<Double>, digitalGain: ClosedRange<Double> = 1...1, baseISO: Double,
                exposureBias: ClosedRange<Double>, zoomFactor: ClosedRange<Double>,
                lensPosition: ClosedRange<Double>, hasTorch: Bool, hasFlash: Bool, exposureDurationStep: Double = 0, analogueGainStep: Double = 0) {
        self.exposureDuration = exposureDuration
        self.analogueGain = analogueGain
        self.digitalGain = digitalGain
        self.baseISO = baseISO
        self.exposureBias = exposureBias
        self.zoomFactor = zoomFactor
        self.lensPosition = lensPosition
        self.hasTorch = hasTorch
        self.hasFlash = hasFlash
        self.exposureDurationStep = exposureDurationStep
        self.analogueGainStep = analogueGainStep
    }

    /// Whether the sensor's exposure can be set at all: false for a video file, whose exposure is
    /// the file's.
    public var exposureIsSettable: Bool {
        exposureDuration.lowerBound < exposureDuration.upperBound || analogueGain.lowerBound < analogueGain.upperBound
    }

    /// ISO speeds matching the analogue gain range.
    public var iso: ClosedRange<Double> {
        (analogueGain.lowerBound * baseISO)...(analogueGain.upperBound * baseISO)
    }

    /// The duration the device sets for `duration`: the nearest within the range, on a step.
    public func settableExposureDuration(_ duration: Double) -> Double {
        Self.nearest(duration, in: exposureDuration, step: exposureDurationStep)
    }

    /// The analogue gain the device sets for `gain`: the nearest within the range, on a step.
    public func settableAnalogueGain(_ gain: Double) -> Double {
        Self.nearest(gain, in: analogueGain, step: analogueGainStep)
    }

    /// The value nearest `value` within `range`, on a `step` from its lower bound (any value for step 0).
    private static func nearest(_ value: Double, in range: ClosedRange<Double>, step: Double) -> Double {
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        guard step > 0 else { return clamped }
        return min(range.lowerBound + ((clamped - range.lowerBound) / step).rounded() * step, range.upperBound)
    }
}
