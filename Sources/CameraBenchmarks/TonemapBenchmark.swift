import CameraCapture
import CameraCore
import CameraEvaluation
import CameraExposure
import CameraISP
import CameraSimulated
import Foundation

/// `bench tonemap`: CameraSun's tone mapping of a 1080p frame on one core — local (the default,
/// `--hdr on`) and the global curve — beside OpenCV's Reinhard, Mantiuk and Drago tone mappers on
/// the same linear frame, in the same run.
///
/// The frame is backlit-portrait, raw, at the sensor exposure and with the render gain the sun AE
/// settles at (found in closed loop at 320×180), developed once; what is timed is the render from
/// the developed frame to bgra8. OpenCV's time is of its `process` call alone (float output, no
/// 8-bit conversion), inside Python.
public enum TonemapBenchmark {
    static let size = PixelSize(width: 1920, height: 1080)

    public static func run(runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        progress.show("bench tonemap: settling the exposure in closed loop")
        let settled = try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 320, height: 180))
            .run(.backlitPortrait, algorithm: SunAwareExposure())
        progress.show("bench tonemap: rendering a 1080p raw frame")
        let camera = try SimulatedCamera(scene: .backlitPortrait,
                                         format: MeteringBenchmark.format(size.width, size.height, .bayer16(.rggb, significantBits: 12)))
        try camera.updateControls { $0.exposureDuration = pow(2, settled.sensorExposureEV) }
        try camera.startStreaming()
        var frame = try await camera.nextFrame()
        // The controls land two frames later.
        for _ in 0..<2 { frame = try await camera.nextFrame() }
        var pipeline = ImagePipeline()
        try pipeline.develop(frame)
        let gain = RenderGain(subjectLevel: ClosedLoopEvaluation.subjectLevel(pipeline.developed, truth: camera.groundTruth(for: frame)),
                              ev: settled.renderGainEV)
        let output = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        var times: [(mapping: ToneMapping, milliseconds: Double)] = []
        for mapping in [ToneMapping.local, .global] {
            times.append((mapping, try await medianMilliseconds(runs: runs, progress: { progress.show("bench tonemap \(mapping): run \($0)/\(runs)") }) {
                try pipeline.render(gain, toneMapping: mapping, into: output)
            }))
        }
        progress.show("bench tonemap: OpenCV's tone mappers")
        let peers = try OpenCVToneMappers(runs: min(runs, 10)).render(ClosedLoopEvaluation.radiance(of: pipeline.developed))
        progress.clear()
        var results: [Benchmark] = []
        for (mapping, ours) in times {
            for peer in peers {
                results.append(Benchmark(name: "tonemap-1080p-\(mapping)", unit: "ms/frame", ours: ours,
                                         peer: peer.name, peerValue: peer.milliseconds, ratio: peer.milliseconds / ours))
            }
        }
        return results
    }
}
