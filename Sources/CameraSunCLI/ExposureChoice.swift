import CameraCapture
import CameraCore
import CameraSimulated
import Foundation

/// The fixed exposure a command runs with until the exposure engine drives the camera: the
/// user's `--shutter`/`--gain`, or the scene's reference exposure (from ground truth) shifted by
/// `--ev`, split into the longest duration up to one frame and then analogue gain.
struct ExposureChoice {
    let duration: MediaTime
    let gain: Double

    static func resolve(shutter: MediaTime?, gain: Double?, bias: Double, camera: SimulatedCamera) throws -> ExposureChoice {
        let caps = camera.capabilities
        if let gain { _ = try ValueOutOfRangeError.check(gain, in: caps.analogueGain, setting: "--gain") }
        if let shutter {
            _ = try ValueOutOfRangeError.check(shutter.seconds, in: caps.exposureDuration, setting: "--shutter", unit: "s")
            return ExposureChoice(duration: shutter, gain: gain ?? 1)
        }
        let total = camera.scene.referenceExposure(viewSize: camera.activeFormat.size, sensor: camera.sensor, bias: bias)
        let longest = min(1 / camera.frameRate, caps.exposureDuration.upperBound)
        let seconds = min(max(total / (gain ?? 1), caps.exposureDuration.lowerBound), longest)
        let chosenGain = gain ?? min(max(total / seconds, caps.analogueGain.lowerBound), caps.analogueGain.upperBound)
        return ExposureChoice(duration: MediaTime(seconds: seconds, preferredTimescale: 1_000_000), gain: chosenGain)
    }

    func apply(to camera: SimulatedCamera) throws {
        try camera.requestExposure(duration: duration)
        try camera.requestGain(gain)
    }
}
