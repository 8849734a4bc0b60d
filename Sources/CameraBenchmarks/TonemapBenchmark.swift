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
///
/// The denoiser's figures are the time `develop` takes with it less the time without it (spatial:
/// every picture; temporal: a stream's frame, on top of the spatial), beside OpenCV's bilateral
/// filter of the rendered 8-bit frame.
///
/// The whole render, `render-1080p-whole`, is what a stream's frame costs from raw to bgra8:
/// `develop` as a stream's pipeline does it (demosaic, spatial and temporal denoising) and the
/// local tone map with its sRGB encode, beside the fastest of OpenCV's tone mappers alone.
public enum TonemapBenchmark {
    static let size = PixelSize(width: 1920, height: 1080)

    public static func run(runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        let scene = try await SettledBacklitPortrait(size: size, label: "bench tonemap", progress: progress)
        let (settled, camera) = (scene.settled, scene.camera)
        try camera.startStreaming()
        let frame = try await scene.frame()
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
        var denoise: [(name: String, milliseconds: Double)] = []
        var previous = 0.0
        for denoising in Denoising.allCases {
            var timed = ImagePipeline(denoising: denoising)
            // The temporal denoiser blends with the output before: a first frame has none.
            try timed.develop(frame)
            let milliseconds = try await medianMilliseconds(runs: runs, progress: { progress.show("bench tonemap: develop, denoise \(denoising): run \($0)/\(runs)") }) {
                try timed.develop(frame)
            }
            if denoising != .off { denoise.append(("denoise-1080p-\(denoising)", milliseconds - previous)) }
            previous = milliseconds
        }
        var stream = ImagePipeline(denoising: .temporal)
        try stream.develop(frame)
        let whole = try await medianMilliseconds(runs: runs, progress: { progress.show("bench tonemap: the whole render: run \($0)/\(runs)") }) {
            try stream.develop(frame)
            try stream.render(gain, toneMapping: .local, into: output)
        }
        try pipeline.render(gain, toneMapping: .local, into: output)
        progress.show("bench tonemap: OpenCV's bilateral filter")
        let bilateral = try OpenCVBilateralPeer(runs: min(runs, 10)).milliseconds(output)
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
        for (name, ours) in denoise {
            results.append(Benchmark(name: name, unit: "ms/frame", ours: ours, peer: "opencv-bilateral", peerValue: bilateral,
                                     ratio: bilateral / ours))
        }
        if let fastest = peers.min(by: { $0.milliseconds < $1.milliseconds }) {
            results.append(Benchmark(name: "render-1080p-whole", unit: "ms/frame", ours: whole, peer: fastest.name,
                                     peerValue: fastest.milliseconds, ratio: fastest.milliseconds / whole))
        }
        return results
    }
}
