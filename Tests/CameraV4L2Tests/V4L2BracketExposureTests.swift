import CameraCapture
import CameraTestSupport
import CameraV4L2
import Foundation
import Testing

/// A bracket finds its frames by their metadata (`FrameMetadata.isMade(with:)`, within 1%), and a
/// V4L2 camera's frames say what its controls took: exposure in 100 µs units, gain in steps. The
/// bracket's exposures are made on those steps, so the two agree.
@Suite("A bracket's exposures on V4L2's control steps")
struct V4L2BracketExposureTests {
    /// An exposure between exposure_time_absolute's and gain's steps, as auto-exposure leaves one.
    let base = SensorControls(exposureDuration: 0.00123, analogueGain: 1.03)

    /// Whether one of the next three frames (the scripted driver's controls reach the next) is made with `controls`.
    func madeWithin3Frames(_ camera: V4L2Camera, _ controls: SensorControls) async throws -> Bool {
        for _ in 0..<3 where try await camera.nextFrame().metadata.isMade(with: controls) { return true }
        return false
    }

    @Test("the capabilities give exposure_time_absolute's 100 µs and the gain control's ×15/255 as their steps")
    func steps() throws {
        let (_, camera) = try scriptedCamera()
        #expect(camera.capabilities.exposureDurationStep == 0.0001)
        #expect(abs(camera.capabilities.analogueGainStep - 15.0 / 255) < 1e-12)
    }

    @Test("each exposure of a −2/0/+2 EV bracket is one the camera's frames then show", arguments: [-2.0, 0, 2])
    func bracketFound(offset: Double) async throws {
        let (_, camera) = try streamingCamera()
        defer { camera.stopStreaming() }
        let exposure = base.exposing(times: pow(2, offset), within: camera.capabilities)
        try camera.apply(exposure)
        #expect(try await madeWithin3Frames(camera, exposure), "\(exposure)")
    }

    @Test("off the steps, a −2 EV exposure (307.5 µs) is one no frame shows: the device takes 300 µs")
    func offStepsNeverFound() async throws {
        let (_, camera) = try streamingCamera()
        defer { camera.stopStreaming() }
        var continuous = camera.capabilities
        (continuous.exposureDurationStep, continuous.analogueGainStep) = (0, 0)
        let exposure = base.exposing(times: 0.25, within: continuous)
        try camera.apply(exposure)
        #expect(try await !madeWithin3Frames(camera, exposure), "\(exposure)")
    }
}
