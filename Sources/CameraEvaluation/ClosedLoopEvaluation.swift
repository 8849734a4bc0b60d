import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraSimulated
import Foundation

/// Runs an exposure algorithm in closed loop on the simulated camera and judges it against the
/// scene's ground truth: how fast it settles, whether it oscillates, how far the subject ends from
/// its intended exposure, and how much outside the sun clips.
public struct ClosedLoopEvaluation {
    /// One frame of the run.
    struct Sample: Encodable {
        let frame: Int
        /// When the frame was captured, in seconds from the first.
        let time: Double
        /// log2 of the frame's total exposure (seconds at base sensitivity).
        let exposureEV: Double
        /// log2(subject's mean linear output ÷ (0.18 × 2^intent)).
        let subjectEV: Double
        let clippedFraction: Double
    }

    /// The figures of one scene × algorithm (the `--json` row of CLI.md).
    public struct Result: Encodable {
        let scene: String
        let algorithm: String
        /// Frames until the exposure stays within ⅙ EV of its final (settled) value.
        let convergeFrames: Int
        /// Subject ΔEV averaged over the last `settledFrames` frames.
        let subjectEvError: Double
        /// Non-sun clipped fraction of the output over the last `settledFrames` frames.
        let clippedFraction: Double
        /// Sign changes of the exposure error beyond ⅙ EV after first converging.
        let oscillations: Int
        let samples: [Sample]
        /// The scene's `highlightBudgetCost`, set by the caller (it is the scene's, not the run's).
        var highlightBudgetCost: Double? {
            didSet {
                verdict = highlightBudgetCost.map {
                    ExposureVerdict(subjectEV: subjectEvError, clippedFraction: clippedFraction, budgetCost: $0)
                }
            }
        }
        /// The run against the exposure bound, once `highlightBudgetCost` is known.
        private(set) var verdict: ExposureVerdict?
        /// The last frame, shrunk for the report.
        var thumbnail: PixelBuffer?

        enum CodingKeys: String, CodingKey {
            case scene, algorithm, convergeFrames, subjectEvError, clippedFraction, oscillations, highlightBudgetCost, verdict
        }
    }

    /// A result with its frames: a `--json --samples` row, the result's keys and `samples`.
    public struct SampledResult: Encodable {
        let result: Result

        public init(_ result: Result) { self.result = result }

        private enum CodingKeys: String, CodingKey { case samples }

        public func encode(to encoder: any Encoder) throws {
            try result.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(result.samples, forKey: .samples)
        }
    }

    static let settledFrames = 10
    /// How far under its intent `highlightBudgetCost` looks for an exposure within the budget.
    static let budgetSearchDepth = 8.0
    /// The largest thumbnail of a run's last frame.
    static let thumbnailBound = PixelSize(width: 240, height: 180)
    static let tolerance = 1.0 / 6

    let frameCount: Int
    let size: PixelSize
    /// The simulated camera's noise seed.
    let seed: UInt64

    /// An evaluation of `frameCount` frames of `size` on the simulated camera, its noise from `seed`.
    public init(frameCount: Int, size: PixelSize, seed: UInt64 = 1) {
        self.frameCount = frameCount
        self.size = size
        self.seed = seed
    }

    /// Runs `algorithm` on `scene` for `frameCount` frames.
    func run(_ scene: SimulatedScene, algorithm: some ExposureAlgorithm) async throws -> Result {
        var algorithm = algorithm
        let camera = try makeCamera(scene)
        let program = exposureProgram(of: camera)
        var analyzer = StreamAnalyzer()
        var samples: [Sample] = []
        var thumbnail: PixelBuffer?
        try camera.startStreaming()
        for index in 0..<frameCount {
            let frame = try await camera.nextFrame()
            let statistics = try analyzer.analyze(frame.buffer)
            let settings = program.split(algorithm.update(statistics, metadata: frame.metadata))
            try camera.updateControls { $0.setExposure(settings) }
            let truth = camera.groundTruth(for: frame)
            let output = GroundTruthReading(frame.buffer, truth: truth)
            samples.append(Sample(frame: index, time: frame.presentationTime.seconds, exposureEV: log2(frame.metadata.totalExposure),
                                  subjectEV: ClosedLoopEvaluation.subjectEV(output, truth: truth),
                                  clippedFraction: output.nonSunClippedFraction))
            if index == frameCount - 1 { thumbnail = try PreviewScaler.scaled(frame.buffer, within: Self.thumbnailBound) }
        }
        var result = ClosedLoopEvaluation.judge(samples, scene: scene.name, algorithm: algorithm.name)
        result.thumbnail = thumbnail
        return result
    }

    /// A thumbnail of `scene`'s first frame at its reference exposure, the subject exactly at its
    /// intent: what subject ΔEV 0 looks like, to judge the subject and intent by.
    func referenceThumbnail(_ scene: SimulatedScene) async throws -> PixelBuffer {
        let camera = try makeCamera(scene)
        let settings = exposureProgram(of: camera).split(scene.referenceExposure(viewSize: size, sensor: camera.sensor))
        try camera.updateControls { $0.setExposure(settings) }
        try camera.startStreaming()
        return try PreviewScaler.scaled(try await camera.nextFrame().buffer, within: Self.thumbnailBound)
    }

    /// How far (EV) `scene`'s subject must go under its intent for the non-sun clipped fraction
    /// to stay within the 2% highlight budget, measured on ground truth by bisection over fixed
    /// exposures: 0 when the intent is within it, `budgetSearchDepth` when not even that far under
    /// is. A panning scene is measured on its view at `time`, held still: pass a run's last frame's,
    /// the view its ΔEV and clipping are judged on. The rule: up to 1 EV the budget wins,
    /// beyond it the subject does — so a run clipping more than 2% is the subject-wins case only
    /// where this is over 1 EV.
    func highlightBudgetCost(_ scene: SimulatedScene, at time: Double = 0) async throws -> Double {
        let scene = scene.heldStill(at: time)
        let camera = try makeCamera(scene)
        let program = exposureProgram(of: camera)
        let reference = scene.referenceExposure(viewSize: size, sensor: camera.sensor)
        try camera.startStreaming()
        /// The subject's ΔEV and the non-sun clipped fraction at `offset` EV from the reference.
        func reading(_ offset: Double) async throws -> (subjectEV: Double, withinBudget: Bool) {
            let settings = program.split(reference * pow(2, offset))
            try camera.updateControls { $0.setExposure(settings) }
            var frame = try await camera.nextFrame()
            // The sensor applies exposure a few frames late: read the first frame made with it.
            for _ in 0..<4 where abs(frame.metadata.totalExposure / settings.total - 1) > 0.01 {
                frame = try await camera.nextFrame()
            }
            let truth = camera.groundTruth(for: frame)
            let output = GroundTruthReading(frame.buffer, truth: truth)
            return (ClosedLoopEvaluation.subjectEV(output, truth: truth),
                    output.nonSunClippedFraction <= SunAwareExposure.highlightBudget)
        }
        if try await reading(0).withinBudget { return 0 }
        var (within, over) = (-ClosedLoopEvaluation.budgetSearchDepth, 0.0)
        var found = try await reading(within)
        guard found.withinBudget else { return ClosedLoopEvaluation.budgetSearchDepth }
        // Clipping grows with exposure: halve the interval to 1/16 EV.
        while over - within > 1.0 / 16 {
            let middle = (within + over) / 2
            let candidate = try await reading(middle)
            if candidate.withinBudget { (within, found) = (middle, candidate) } else { over = middle }
        }
        return max(-found.subjectEV, 0)
    }

    /// A simulated camera on `scene` at the evaluation's size and seed, up to 30 fps.
    private func makeCamera(_ scene: SimulatedScene) throws -> SimulatedCamera {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        return try SimulatedCamera(scene: scene, format: format, seed: seed)
    }

    /// The camera's exposure program at its frame rate, as the 3A engine runs it.
    private func exposureProgram(of camera: SimulatedCamera) -> ExposureProgram {
        ThreeAEngine.exposureProgram(for: camera.capabilities, frameRate: camera.settings.frameRate)
    }

    /// Subject ΔEV: log2 of the subject's mean linear output over 0.18 × 2^intent.
    static func subjectEV(_ output: GroundTruthReading, truth: SimulatedGroundTruth) -> Double {
        log2(max(output.subjectLinearMean, 1e-6) / (Meter.midGray * pow(2, truth.subjectIntent)))
    }

    /// Settling, oscillation and the settled subject error and clipping of a run.
    static func judge(_ samples: [Sample], scene: String, algorithm: String) -> Result {
        // The settled exposure: the median of the last frames. A cycle between two exposures shows
        // as a run that never converges, not as oscillation: the median is one of the two.
        let final = quantile(samples.suffix(settledFrames).map(\.exposureEV), 0.5) ?? 0
        let errors = samples.map { $0.exposureEV - final }
        let converge = (errors.lastIndex { abs($0) > tolerance }).map { $0 + 1 } ?? 0
        let firstConverged = errors.firstIndex { abs($0) <= tolerance } ?? errors.count
        var oscillations = 0, lastSign = 0.0
        for error in errors[firstConverged...] where abs(error) > tolerance {
            let sign = error > 0 ? 1.0 : -1.0
            if lastSign != 0 && sign != lastSign { oscillations += 1 }
            lastSign = sign
        }
        let settled = samples.suffix(settledFrames)
        let count = Double(max(settled.count, 1))
        return Result(scene: scene, algorithm: algorithm, convergeFrames: converge,
                      subjectEvError: settled.reduce(0) { $0 + $1.subjectEV } / count,
                      clippedFraction: settled.reduce(0) { $0 + $1.clippedFraction } / count,
                      oscillations: oscillations, samples: samples)
    }
}
