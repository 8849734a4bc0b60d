import CameraCapture
import CameraCore
import CameraExposure
import CameraISP
import CameraSimulated
import Foundation

/// `camerasun hdr-eval`: a bracketed photo of each scene, judged on the output as `ae-eval` judges
/// the viewfinder, beside the single frame it replaces and the two fusion peers on the same bracket.
///
/// ```
///  scene ─► closed loop (SunAwareExposure) ─► settled sensor exposure and render gain
///        ─► a raw bracket at the offsets around it, twice, from two noise seeds
///        ─► camerasun-bracket (BracketRenderer)   camerasun-single (the 0 EV frame, same gain)
///           enfuse, opencv-mertens (each exposure as the camera's own sRGB picture, fused)
///        ─► subject ΔEV and clipping (ground truth), MEF-SSIM against the exposures, TMQI against
///           the scene's radiance, the subject's SNR from the two seeds' difference
/// ```
///
/// The subject's noise is measured, not modelled: the same bracket rendered from two noise seeds
/// differs only by noise, so σ = std(A − B)/√2 over the subject, on linear luminance.
public struct HDREvaluation {
    /// One scene × method.
    public struct Row: Encodable, Sendable {
        /// Where the scene comes from: "built-in", or the `--views` list's path.
        public let list: String
        public let scene: String
        public let method: String
        /// How far the settled render gain lifts the subject above the sensor's exposure (EV): how
        /// dark the subject is in the frame exposed for the highlights.
        public let renderGainEV: Double
        public let subjectEvError: Double
        public let clippedFraction: Double
        public let mefSSIM: Double
        public let tmqi: Double
        public let subjectSnrDb: Double
        /// Within the HDR issue's output bound: subject within ⅓ EV, clipping outside light sources ≤ 2%.
        public let withinBound: Bool
    }

    /// CameraSun's bracketed photo, and the single frame it replaces.
    public static let (bracketMethod, singleMethod) = ("camerasun-bracket", "camerasun-single")
    public static let methods = [bracketMethod, singleMethod, "enfuse", "opencv-mertens"]

    let size: PixelSize
    public let offsets: [Double]

    public init(size: PixelSize = PixelSize(width: 640, height: 360), offsets: [Double] = [-2, 0, 2]) {
        (self.size, self.offsets) = (size, offsets)
    }

    /// Every method's row for `scene`, from `list`.
    public func run(_ scene: SimulatedScene, list: String) async throws -> [Row] {
        let loop = ClosedLoopEvaluation(frameCount: 45, size: size)
        let settled = try await loop.run(scene, algorithm: SunAwareExposure())
        guard let gain = settled.renderGain else { throw EvaluationError.invalidInput("the closed loop on \(scene.name) gave no frame") }
        // The bracket is taken where the loop settled: a scene that changes (step-change) is then as the exposure found it.
        let settledTime = settled.samples.last?.time ?? 0
        let first = try await pictures(of: scene, seed: 1, at: settledTime, exposureEV: settled.sensorExposureEV, gain: gain)
        let second = try await pictures(of: scene, seed: 2, at: settledTime, exposureEV: settled.sensorExposureEV, gain: gain)
        let radiance = loop.sceneRadiance(scene, at: first.time)
        return try Self.methods.map { method in
            let (picture, again) = (first.methods[method]!, second.methods[method]!)
            let reading = GroundTruthReading(picture, truth: first.truth)
            let subjectEV = ClosedLoopEvaluation.subjectEV(reading, truth: first.truth)
            return Row(list: list, scene: scene.name, method: method, renderGainEV: gain.ev, subjectEvError: subjectEV, clippedFraction: reading.nonSunClippedFraction,
                       mefSSIM: try MEFSSIM.score(sources: first.exposures, fused: picture).quality,
                       tmqi: try TMQI.score(hdr: radiance, ldr: picture).quality,
                       subjectSnrDb: Self.subjectSNR(picture, again, truth: first.truth),
                       withinBound: abs(subjectEV) <= 1.0 / 3 && reading.nonSunClippedFraction <= 0.02)
        }
    }

    /// One seed's bracket and what each method makes of it.
    private struct Pictures {
        let methods: [String: PixelBuffer]
        let exposures: [PixelBuffer]
        let truth: SimulatedGroundTruth
        let time: Double
    }

    private func pictures(of scene: SimulatedScene, seed: UInt64, at time: Double, exposureEV: Double, gain: RenderGain) async throws -> Pictures {
        let format = DeviceFormat(size: size, pixelFormat: ClosedLoopEvaluation.rawFormat, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format, seed: seed)
        try camera.startStreaming()
        defer { camera.stopStreaming() }
        while try await camera.nextFrame().presentationTime.seconds < time {}
        var frames: [Frame] = []
        let base = SensorControls(exposureDuration: pow(2, exposureEV), analogueGain: 1)
        for offset in offsets {
            frames.append(try await camera.nextFrame(madeWith: base.exposing(times: pow(2, offset), within: camera.capabilities)))
        }
        let reference = offsets.indices.min { abs(offsets[$0]) < abs(offsets[$1]) }!
        var pipeline = ImagePipeline()
        let exposures = try frames.map { frame in
            try pipeline.develop(frame)
            let picture = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
            try pipeline.renderMeteringView(into: picture)
            return picture
        }
        try pipeline.develop(frames[reference])
        let single = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        try pipeline.render(gain, toneMapping: .local, into: single)
        var methods = [Self.singleMethod: single,
                       Self.bracketMethod: try BracketRenderer.render(frames, offsets: offsets, gain: gain, toneMapping: .local, format: .bgra8).buffer]
        for peer in try BracketFusionPeers().fuse(exposures) { methods[peer.name] = peer.image }
        return Pictures(methods: methods, exposures: exposures, truth: camera.groundTruth(for: frames[reference]),
                        time: frames[reference].presentationTime.seconds)
    }

    /// The subject's SNR (dB) in a picture made twice from different noise: its mean linear
    /// luminance over σ = std(A − B)/√2; 0 without a subject.
    static func subjectSNR(_ a: PixelBuffer, _ b: PixelBuffer, truth: SimulatedGroundTruth) -> Double {
        var (sum, differences) = (0.0, [Double]())
        for y in 0..<a.height {
            for x in 0..<a.width where truth.subjectMask[y * a.width + x] == 1 {
                let (first, second) = (luminance(a, x, y), luminance(b, x, y))
                sum += first
                differences.append(first - second)
            }
        }
        guard differences.count > 1 else { return 0 }
        let mean = differences.reduce(0, +) / Double(differences.count)
        let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(differences.count - 1)
        let noise = (variance / 2).squareRoot()
        return 20 * log10(max(sum / Double(differences.count), 1e-9) / max(noise, 1e-9))
    }

    /// The linear Rec. 709 luminance of a bgra8 pixel.
    private static func luminance(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> Double {
        let channel = { (offset: Int) in SRGB.decode(Double(buffer[plane: 0, x: 4 * x + offset, y: y]) / 255) }
        return Double(BT709.redWeight) * channel(2) + Double(BT709.greenWeight) * channel(1) + Double(BT709.blueWeight) * channel(0)
    }
}
