import CameraCapture
import CameraCore
import CameraEvaluation
import CameraExposure
import CameraSimulated
import Foundation

/// backlit-portrait as the HDR benchmarks take it: the sensor exposure and render gain the sun AE
/// settles at (found in closed loop at 320×180), and a raw camera on the scene at `size`.
struct SettledBacklitPortrait {
    let settled: ClosedLoopEvaluation.Result
    let camera: SimulatedCamera

    init(size: PixelSize, label: String, progress: BenchmarkProgress) async throws {
        progress.show("\(label): settling the exposure in closed loop")
        settled = try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 320, height: 180))
            .run(.backlitPortrait, algorithm: SunAwareExposure())
        progress.show("\(label): rendering 1080p raw frames")
        camera = try SimulatedCamera(scene: .backlitPortrait,
                                     format: MeteringBenchmark.format(size.width, size.height, .bayer16(.rggb, significantBits: 12)))
    }

    /// The next frame made `offset` EV from the settled sensor exposure.
    func frame(offset: Double = 0) async throws -> Frame {
        try await camera.nextFrame(madeWith: SensorControls(exposureDuration: pow(2, settled.sensorExposureEV), analogueGain: 1)
            .exposing(times: pow(2, offset), within: camera.capabilities))
    }
}
