import CameraCapture
import CameraCore
import CameraEvaluation
import CameraExposure
import CameraISP
import CameraSimulated
import Foundation

/// `bench fusion`: a −2/0/+2 EV bracket of 1080p raw frames made into one picture on one core —
/// CameraSun's merge in the mosaic, development and tone mapping (`BracketRenderer`) — beside
/// `enfuse` and OpenCV's `createMergeMertens(1, 1, 1)` fusing the same three exposures, each
/// rendered to 8-bit sRGB as a camera's own JPEG would be, in the same run; then a bracketed
/// photo from request to saved file beside a single-frame one (`BracketCaptureBenchmark`).
///
/// The bracket is backlit-portrait around the sensor exposure the sun AE settles at (found in
/// closed loop at 320×180). Ours is timed from the raw frames to the bgra8 picture; enfuse's is its
/// whole process (reading and writing its files included, as its users run it); OpenCV's its
/// `process` call alone.
public enum FusionBenchmark {
    static let size = PixelSize(width: 1920, height: 1080)
    static let offsets = [-2.0, 0, 2]

    public static func run(runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let scene = try await SettledBacklitPortrait(size: size, label: "bench fusion", progress: progress)
        let (settled, camera) = (scene.settled, scene.camera)
        try camera.startStreaming()
        var frames: [Frame] = []
        for offset in offsets { frames.append(try await scene.frame(offset: offset)) }
        camera.stopStreaming()
        var pipeline = ImagePipeline()
        try pipeline.develop(frames[1])
        let gain = RenderGain(subjectLevel: ClosedLoopEvaluation.subjectLevel(pipeline.developed, truth: camera.groundTruth(for: frames[1])),
                              ev: settled.renderGainEV)
        let ours = try await medianMilliseconds(runs: runs, progress: { progress.show("bench fusion: CameraSun, run \($0)/\(runs)") }) {
            _ = try BracketRenderer.render(frames, offsets: offsets, gain: gain, toneMapping: .local, format: .bgra8)
        }
        // The peers' inputs: each exposure as the camera's own picture of it, no gain.
        let exposures = try frames.map { frame in
            var pipeline = ImagePipeline()
            try pipeline.develop(frame)
            let picture = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
            try pipeline.renderMeteringView(into: picture)
            return picture
        }
        progress.show("bench fusion: enfuse and OpenCV's Mertens on the same exposures")
        let peers = try BracketFusionPeers().fuse(exposures)
        let fusion = peers.map { peer in
            Benchmark(name: "fusion-3x1080p", unit: "ms/photo", ours: ours, peer: peer.name, peerValue: peer.milliseconds,
                      ratio: peer.milliseconds / ours)
        }
        let capture = try await BracketCaptureBenchmark.run(shots: runs, progress: progress)
        progress.clear()
        return fusion + capture
    }
}
