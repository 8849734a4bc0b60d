import CameraCapture
import CameraCore
import CameraExposure
import CameraSimulated
import Foundation

/// A fixed exposure for a command: the user's `--shutter`/`--gain`, or the scene's reference
/// exposure (from ground truth) shifted by `--ev` and split by the camera's exposure program.
struct ExposureChoice {
    let duration: MediaTime
    let gain: Double
    let digitalGain: Double

    static func resolve(shutter: MediaTime?, gain: Double?, bias: Double, camera: SimulatedCamera) throws -> ExposureChoice {
        let caps = camera.capabilities
        if let gain { _ = try ValueOutOfRangeError.check(gain, in: caps.analogueGain, setting: "--gain") }
        if let shutter {
            _ = try ValueOutOfRangeError.check(shutter.seconds, in: caps.exposureDuration, setting: "--shutter", unit: "s")
            return ExposureChoice(duration: shutter, gain: gain ?? 1, digitalGain: 1)
        }
        var program = camera.exposureProgram
        if let gain { program.analogueGainRange = gain...gain }
        let settings = program.split(camera.scene.referenceExposure(viewSize: camera.activeFormat.size, sensor: camera.sensor, bias: bias))
        return ExposureChoice(duration: MediaTime(seconds: settings.duration, preferredTimescale: 1_000_000),
                              gain: settings.analogueGain, digitalGain: settings.digitalGain)
    }

    func apply(to camera: SimulatedCamera) throws {
        try camera.updateControls {
            $0.exposureDuration = duration.seconds
            $0.analogueGain = gain
            $0.digitalGain = digitalGain
        }
    }
}

extension SimulatedCamera {
    /// The camera's exposure program: durations up to one frame, then analogue, then digital gain.
    var exposureProgram: ExposureProgram {
        ExposureProgram(durationRange: capabilities.exposureDuration.lowerBound...min(1 / settings.frameRate, capabilities.exposureDuration.upperBound),
                        analogueGainRange: capabilities.analogueGain, maximumDigitalGain: capabilities.digitalGain.upperBound)
    }
}
