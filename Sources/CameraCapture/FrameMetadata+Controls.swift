import CameraCore

extension FrameMetadata {
    /// Whether the frame was made with `controls`' exposure and lens position: the frame a held
    /// exposure was waited for. Devices round durations and gains: within 1 %, and a duration
    /// within half a microsecond too (the simulated camera's step, 2 % of its shortest exposure).
    public func isMade(with controls: SensorControls) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) < 0.01 }
        let duration = exposureDuration.seconds
        return (close(duration, controls.exposureDuration) || abs(duration - controls.exposureDuration) <= 0.5e-6)
            && close(analogueGain, controls.analogueGain)
            && close(digitalGain, controls.digitalGain) && abs(lensPosition - controls.lensPosition) < 1e-6
    }
}
