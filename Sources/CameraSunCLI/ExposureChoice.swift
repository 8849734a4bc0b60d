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

    /// Without `--shutter` the exposure comes from the scene's ground truth, which only a
    /// simulated camera knows.
    static func resolve(shutter: MediaTime?, gain flag: GainFlag?, bias: Double, camera: any CaptureDevice) throws -> ExposureChoice {
        let caps = camera.capabilities
        let gain = try flag?.analogueGain(on: caps)
        if let shutter {
            _ = try ValueOutOfRangeError.check(shutter.seconds, in: caps.exposureDuration, setting: "--shutter", unit: "s")
            return ExposureChoice(duration: shutter, gain: gain ?? caps.analogueGain.lowerBound, digitalGain: 1)
        }
        guard let simulated = camera as? SimulatedCamera else {
            throw CLIError.usage("\(camera.localizedName) cannot work out an exposure for --gain alone — give --shutter as well")
        }
        var program = ThreeAEngine.exposureProgram(for: caps, frameRate: camera.settings.frameRate)
        if let gain { program.analogueGainRange = gain...gain }
        let reference = simulated.scene.referenceExposure(viewSize: camera.activeFormat.size, sensor: simulated.sensor, bias: bias)
        let settings = program.split(reference)
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
