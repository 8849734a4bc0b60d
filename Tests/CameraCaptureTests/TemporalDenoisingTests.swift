import CameraCapture
import CameraCore
import CameraISP
import CameraSimulated
import Testing

/// The temporal denoiser on the simulated camera's raw frames: on a still scene it lowers the noise
/// below what the spatial denoiser leaves; on `moving-subject` the rolling ball leaves no trail.
@Suite("Temporal denoising of a stream")
struct TemporalDenoisingTests {
    static let size = PixelSize(width: 320, height: 180)

    /// Raw frames `0..<count` of `scene` at 30 fps, 1/1000 s at gain 4, seed 1.
    static func frames(_ scene: SimulatedScene, count: Int) async throws -> (camera: SimulatedCamera, frames: [Frame]) {
        let format = DeviceFormat(size: size, pixelFormat: .bayer16(.rggb, significantBits: 12),
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format, frameRate: 30, seed: 1, bufferCount: count + 1)
        try camera.updateControls {
            $0.exposureDuration = 1.0 / 1000
            $0.analogueGain = 4
        }
        try camera.startStreaming()
        var frames: [Frame] = []
        for _ in 0..<count { frames.append(try await camera.nextFrame()) }
        return (camera, frames)
    }

    /// Each frame of `frames` developed by one pipeline that denoises as `denoising` says, as luma.
    static func lumas(_ frames: [Frame], _ denoising: Denoising) throws -> [[Float]] {
        var pipeline = ImagePipeline(denoising: denoising)
        return try frames.map { frame in
            try pipeline.develop(frame)
            let image = pipeline.developed
            return (0..<size.pixelCount).map { i in
                let p = image[i % size.width, i / size.width]
                return 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z
            }
        }
    }

    @Test("on a still scene the noise falls by 1.5× or more beyond the spatial denoiser's within 8 frames")
    func stillScene() async throws {
        let still = try await Self.frames(.backlitPortrait, count: 9)
        let spatial = try Self.lumas(still.frames, .spatial), temporal = try Self.lumas(still.frames, .temporal)
        // Noise as the spread of the difference between the last two frames, where the scene is dark.
        func deviation(_ lumas: [[Float]]) -> Double {
            let (a, b) = (lumas[7], lumas[8])
            let differences = a.indices.filter { a[$0] < 0.05 }.map { Double(b[$0] - a[$0]) }
            let mean = differences.reduce(0, +) / Double(differences.count)
            return (differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(differences.count)).squareRoot()
        }
        let factor = deviation(spatial) / deviation(temporal)
        #expect(factor >= 1.5)
    }

    @Test("on moving-subject the ball leaves a trail of at most 1% of its area outside where it is")
    func noTrail() async throws {
        let moving = try await Self.frames(.movingSubject, count: 12)
        let still = try await Self.frames(.backlitPortrait, count: 12)
        // Both scenes are rendered with the same noise, so what the temporal filter carries of the
        // ball is the difference between the two streams' outputs beyond the spatial filter's.
        let temporalMoving = try Self.lumas(moving.frames, .temporal), temporalStill = try Self.lumas(still.frames, .temporal)
        let spatialMoving = try Self.lumas(moving.frames, .spatial), spatialStill = try Self.lumas(still.frames, .spatial)
        var worst = 0.0
        for n in 1..<12 {
            let mask = moving.camera.groundTruth(for: moving.frames[n]).objectMask
            let ball = mask.indices.filter { mask[$0] == 1 }
            let contrast = ball.reduce(Float(0)) { $0 + spatialMoving[n][$1] - spatialStill[n][$1] } / Float(ball.count)
            // A trail: 3% of the ball's contrast left where it is not.
            let trail = mask.indices.filter { i in
                mask[i] == 0 && abs((temporalMoving[n][i] - temporalStill[n][i]) - (spatialMoving[n][i] - spatialStill[n][i])) > 0.03 * contrast
            }
            worst = max(worst, Double(trail.count) / Double(ball.count))
        }
        #expect(worst <= 0.01)
    }
}
