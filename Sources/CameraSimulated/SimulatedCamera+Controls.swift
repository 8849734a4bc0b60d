import CameraCapture
import CameraCore

extension SimulatedCamera {
    /// Sets the sensor and lens for the frames to come. Like a real sensor, a new exposure time
    /// shows two frames after the frame last asked for (`nextFrame()`) and a new analogue gain one
    /// frame after (at once while no frame is in flight: stopped, or started without a frame yet);
    /// the other controls apply from the next frame scheduled. In realtime pacing the frame after
    /// the last one asked for is already being read out: what would land on it lands on the one
    /// after (exposure still two frames after). A flash request fires once, on the next frame scheduled
    /// (stopping the stream drops it). Each frame's metadata tells what it was captured with,
    /// the flash's power included.
    /// A value outside `capabilities` (or a white-balance gain outside `whiteBalanceGainRange`)
    /// throws naming the control and its range, and nothing changes. Exposure durations are exact
    /// for whole fractions of a second (1/30) and kept to the microsecond otherwise.
    public func apply(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        try updateControls { $0 = controls }
    }

    /// Edits the controls last applied and applies the result as `apply(_:)` does, in one step:
    /// `try camera.updateControls { $0.zoomFactor = 2 }`. `edit` runs under the camera's lock,
    /// so it must not call back into the camera.
    public func updateControls(_ edit: (inout SensorControls) -> Void) throws(ValueOutOfRangeError) {
        try state.withLock { (state) throws(ValueOutOfRangeError) in
            var controls = state.requested
            edit(&controls)
            try SimulatedCamera.validate(controls)
            state.request(controls)
        }
    }

    /// The controls last applied; exposure and gain may not be in effect yet.
    public var requestedControls: SensorControls {
        state.withLock { $0.requested }
    }

    /// Lights the scene with a black body at `temperature` kelvin (`ColorTemperature.range`,
    /// 2000…12000 K), or with its own light for nil (the default). Each channel of the scene's
    /// radiance is scaled by the light's RGB relative to 6500 K at unit luminance, so exposure is
    /// unchanged and only colour moves; the camera's white balance has to undo it. Applies from
    /// the next frame scheduled. This changes the simulated world, not a device control.
    public func setIlluminant(temperature: Double?) throws(ValueOutOfRangeError) {
        if let temperature {
            _ = try ValueOutOfRangeError.check(temperature, in: ColorTemperature.range, setting: "illuminant colour temperature", unit: "K")
        }
        let scale = Illuminant.channelScale(temperature: temperature)
        state.withLock { $0.illuminant = scale }
    }

    /// Throws for the first control outside what the simulated sensor and lens accept.
    private static func validate(_ controls: SensorControls) throws(ValueOutOfRangeError) {
        try controls.validate(within: standardCapabilities)
        _ = try ValueOutOfRangeError.check(controls.whiteBalance.red, in: whiteBalanceGainRange, setting: "red white-balance gain")
        _ = try ValueOutOfRangeError.check(controls.whiteBalance.green, in: whiteBalanceGainRange, setting: "green white-balance gain")
        _ = try ValueOutOfRangeError.check(controls.whiteBalance.blue, in: whiteBalanceGainRange, setting: "blue white-balance gain")
    }

    /// The next frame made with `exposure`'s duration and gains: they are set, and the frames made
    /// before they land (two, on this sensor) are skipped — a frame at a chosen exposure for an
    /// evaluation, a benchmark or a test. Throws when none comes within eight frames.
    public func nextFrame(madeWith exposure: SensorControls) async throws -> Frame {
        try updateControls { controls in
            (controls.exposureDuration, controls.analogueGain, controls.digitalGain) =
                (exposure.exposureDuration, exposure.analogueGain, exposure.digitalGain)
        }
        let held = requestedControls
        for _ in 0..<8 {
            let frame = try await nextFrame()
            if frame.metadata.isMade(with: held) { return frame }
        }
        throw CaptureError.deviceFailure(device: uniqueID, detail: "no frame came at \(exposure.exposureDuration) s, gain "
            + "\(exposure.analogueGain * exposure.digitalGain) within eight frames")
    }
}
