import CameraCore

extension FrameMetadata {
    /// Whether the frame was made with `controls`' exposure (within 1 %: controls on the device's
    /// steps, `SensorControls.exposing(times:within:)`, come back as they were set) and lens
    /// position: the frame a held exposure was waited for.
    public func isMade(with controls: SensorControls) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) < 0.01 }
        return close(exposureDuration.seconds, controls.exposureDuration) && close(analogueGain, controls.analogueGain)
            && close(digitalGain, controls.digitalGain) && abs(lensPosition - controls.lensPosition) < 1e-6
    }
}
