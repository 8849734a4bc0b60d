import CameraCapture
import CameraCore
import CameraExposure
import CameraISP
import CameraMetering
import CameraSimulated
import Foundation

/// Runs an exposure algorithm in closed loop on the simulated camera and judges the picture the
/// user sees against the scene's ground truth: how fast it settles, whether it oscillates, how far
/// the subject ends from its intended exposure in the output, and how much of the rest clips or
/// crushes there.
///
/// The camera hands out raw frames; CameraSun's image pipeline develops each, the algorithm meters
/// the developed frame and decides the sensor exposure and the render gain, and the pipeline
/// renders the output with them — the local tone mapper for the sun AE with `--hdr on`, the plain
/// global curve otherwise (the classic loops, which set the sensor for the picture, render at no gain).
public struct ClosedLoopEvaluation {
    /// One frame of the run.
    struct Sample: Encodable {
        let frame: Int
        /// When the frame was captured, in seconds from the first.
        let time: Double
        /// log2 of the frame's total exposure (seconds at base sensitivity).
        let exposureEV: Double
        /// The EV the image pipeline lifted the subject by on this frame.
        let renderGainEV: Double
        /// log2(subject's mean linear output ÷ (0.18 × 2^intent)).
        let subjectEV: Double
        let clippedFraction: Double
        let crushedFraction: Double
    }

    /// The figures of one scene × algorithm (the `--json` row of docs/CLI.md).
    public struct Result: Encodable {
        let scene: String
        let algorithm: String
        /// Frames until the exposure stays within ⅙ EV of its final (settled) value.
        let convergeFrames: Int
        /// Output subject ΔEV averaged over the last `settledFrames` frames.
        public let subjectEvError: Double
        /// Fraction of the output outside light sources at ≥ 250/255, over the last `settledFrames` frames.
        public let clippedFraction: Double
        /// Fraction of the output outside light sources at ≤ 5/255, then.
        let crushedFraction: Double
        /// Sign changes of the exposure error beyond ⅙ EV after first converging.
        let oscillations: Int
        /// The settled sensor exposure (log2 of seconds at base sensitivity) and render gain (EV).
        public let sensorExposureEV: Double
        public let renderGainEV: Double
        /// Whether the settled exposure sits at the camera's shortest or longest: the figures then
        /// measure the camera's range, not the algorithm.
        let atDeviceLimit: Bool
        /// The subject's signal-to-noise ratio in the last frame, from its electrons at the sensor.
        let subjectSnrDb: Double
        /// The noise the picture shows on the subject: the PSNR (dB, 8-bit RGB) of the last output
        /// over the subject against the same pipeline fed the same frame without sensor noise.
        var subjectPsnrDb: Double?
        /// TMQI of the last output frame against the scene's radiance (nil when the frame is
        /// smaller than TMQI's window allows).
        var tmqi: Double?
        /// TMQI of the same frame and render gain through the global curve (`--hdr off`): what
        /// the local tone mapping adds. Nil where the run renders globally already.
        var globalTmqi: Double?
        /// How far the subject's radiance lies below the scene's highlights (the brightest 2%
        /// outside the sun), in EV: how dark a subject the scene has, whatever the exposure.
        var subjectBelowHighlightsEV: Double?
        /// The mean output level of the same view at dusk (median 5 cd/m²) against this one's, in
        /// EV (negative: darker); for views of HDR images.
        var duskEV: Double?
        /// The run against the output-referred bound.
        let verdict: ExposureVerdict
        let samples: [Sample]
        /// The last output frame (bgra8), what made it, and the frame shrunk for the report.
        public var output: PixelBuffer?
        public var metadata: FrameMetadata?
        var thumbnail: PixelBuffer?
        /// The last frame through the global curve, shrunk for the report.
        var globalThumbnail: PixelBuffer?
        /// How the algorithm rendered the last frame: the render gain a photo of it is made with.
        public var renderGain: RenderGain?
        /// The last frame as developed (linear) and its ground truth, for the peers to tone-map.
        var developed: RadianceImage?
        public var truth: SimulatedGroundTruth?

        /// Whether the run is one of OpenCV's tone mappers on the sun AE's frame.
        var isOpenCV: Bool { OpenCVToneMappers.names.contains(algorithm) }

        enum CodingKeys: String, CodingKey {
            case scene, algorithm, convergeFrames, subjectEvError, clippedFraction, crushedFraction, oscillations, tmqi, globalTmqi,
                 subjectSnrDb, subjectPsnrDb, subjectBelowHighlightsEV, duskEV, sensorExposureEV, renderGainEV, atDeviceLimit, verdict
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
    /// The largest picture of a run's last frame in the report: big enough to see noise and halos.
    static let thumbnailBound = PixelSize(width: 640, height: 360)
    static let tolerance = 1.0 / 6
    /// The raw format the evaluated camera delivers.
    static let rawFormat = PixelFormat.bayer16(.rggb, significantBits: 12)

    let frameCount: Int
    let size: PixelSize
    /// The simulated camera's noise seed.
    let seed: UInt64
    /// How the sun AE's frames are tone-mapped: `.local` (`--hdr on`) or `.global`.
    let toneMapping: ToneMapping
    /// The camera's EV bias (`--ev`), which the algorithms read from each frame's metadata.
    let bias: Double
    /// The simulated camera's sensor.
    let sensor: SensorModel

    /// An evaluation of `frameCount` frames of `size` on the simulated camera with `sensor`, its
    /// noise from `seed`, the sun AE's output tone-mapped by `toneMapping`, the exposure biased by
    /// `bias` EV.
    public init(frameCount: Int, size: PixelSize, seed: UInt64 = 1, toneMapping: ToneMapping = .local, bias: Double = 0,
                sensor: SensorModel = SensorModel()) {
        self.frameCount = frameCount
        self.size = size
        self.seed = seed
        self.toneMapping = toneMapping
        self.bias = bias
        self.sensor = sensor
    }

    /// Runs `algorithm` on `scene` for `frameCount` frames.
    public func run(_ scene: SimulatedScene, algorithm: some ExposureAlgorithm) async throws -> Result {
        var algorithm = algorithm
        let camera = try makeCamera(scene)
        let program = exposureProgram(of: camera)
        // Denoised over time as well as in space, as a stream's frames are (`StreamRenderer`).
        var pipeline = ImagePipeline(denoising: .temporal)
        var analyzer = StreamAnalyzer()
        var samples: [Sample] = []
        var last: (frame: Frame, output: PixelBuffer, truth: SimulatedGroundTruth)?
        let metering = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        // Each frame is rendered into the same buffer: after the loop it holds the last one.
        let output = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        try camera.startStreaming()
        for index in 0..<frameCount {
            let frame = try await camera.nextFrame()
            try pipeline.develop(frame)
            try pipeline.renderMeteringView(into: metering)
            let statistics = try analyzer.analyze(metering)
            let settings = program.split(algorithm.update(statistics, metadata: frame.metadata))
            try camera.updateControls { $0.setExposure(settings) }
            let gain = algorithm.renderGain
            try pipeline.render(gain, toneMapping: gain == .none ? .global : toneMapping, into: output)
            let truth = camera.groundTruth(for: frame)
            let reading = GroundTruthReading(output, truth: truth)
            samples.append(Sample(frame: index, time: frame.presentationTime.seconds, exposureEV: log2(frame.metadata.totalExposure),
                                  renderGainEV: gain.ev, subjectEV: ClosedLoopEvaluation.subjectEV(reading, truth: truth),
                                  clippedFraction: reading.nonSunClippedFraction, crushedFraction: reading.nonSunCrushedFraction))
            last = (frame, output, truth)
        }
        guard let last else { throw EvaluationError.invalidInput("an evaluation needs at least one frame") }
        let limits = (program.minimumTotal, program.maximumTotal)
        let atLimit = last.frame.metadata.totalExposure <= limits.0 * 1.01 || last.frame.metadata.totalExposure >= limits.1 * 0.99
        var result = ClosedLoopEvaluation.judge(samples, scene: scene.name, algorithm: algorithm.name, atDeviceLimit: atLimit,
                                                subjectSnrDb: subjectSNR(pipeline, frame: last.frame, truth: last.truth, camera: camera))
        let radiance = sceneRadiance(scene, at: last.frame.presentationTime.seconds)
        result.tmqi = try? TMQI.score(hdr: radiance, ldr: last.output).quality
        let gain = algorithm.renderGain, mapping = gain == .none ? ToneMapping.global : toneMapping
        if let clean = try await noiseFreePicture(scene, like: last.frame, gain: gain, toneMapping: mapping) {
            result.subjectPsnrDb = ClosedLoopEvaluation.subjectPSNR(last.output, clean, truth: last.truth)
        }
        if mapping == .local {
            let global = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
            try pipeline.render(gain, toneMapping: .global, into: global)
            result.globalTmqi = try? TMQI.score(hdr: radiance, ldr: global).quality
            result.globalThumbnail = try PreviewScaler.scaled(global, within: Self.thumbnailBound)
        }
        result.subjectBelowHighlightsEV = ClosedLoopEvaluation.subjectBelowHighlights(radiance, truth: last.truth)
        result.output = last.output
        result.metadata = last.frame.metadata
        result.thumbnail = try PreviewScaler.scaled(last.output, within: Self.thumbnailBound)
        result.developed = ClosedLoopEvaluation.radiance(of: pipeline.developed)
        result.truth = last.truth
        result.renderGain = algorithm.renderGain
        return result
    }

    /// OpenCV's tone mappers on `run`'s last developed frame, judged as the runs are: one result
    /// per mapper, named as it is (`opencv-reinhard`, …).
    func peers(of run: Result, scene: SimulatedScene, mappers: OpenCVToneMappers = OpenCVToneMappers()) throws -> [Result] {
        guard let developed = run.developed, let truth = run.truth, let time = run.samples.last?.time else { return [] }
        let radiance = sceneRadiance(scene, at: time)
        do {
            return try mappers.render(developed).map { output in
                let reading = GroundTruthReading(output.image, truth: truth)
                let sample = Sample(frame: 0, time: time, exposureEV: run.sensorExposureEV, renderGainEV: 0,
                                    subjectEV: ClosedLoopEvaluation.subjectEV(reading, truth: truth),
                                    clippedFraction: reading.nonSunClippedFraction, crushedFraction: reading.nonSunCrushedFraction)
                var result = ClosedLoopEvaluation.judge([sample], scene: run.scene, algorithm: output.name,
                                                        atDeviceLimit: run.atDeviceLimit, subjectSnrDb: run.subjectSnrDb)
                result.tmqi = try? TMQI.score(hdr: radiance, ldr: output.image).quality
                result.thumbnail = try? PreviewScaler.scaled(output.image, within: Self.thumbnailBound)
                return result
            }
        } catch {
            throw EvaluationError.unreadable("\(error)")
        }
    }

    /// The scene's radiance in the camera's view at `time`: what TMQI compares the output with.
    func sceneRadiance(_ scene: SimulatedScene, at time: Double) -> RadianceImage {
        let painted = scene.heldStill(at: time).render(viewSize: size, at: time).radiance
        let originX = scene.viewOrigin(at: time, imageWidth: painted.width, viewWidth: size.width)
        guard painted.width != size.width || originX != 0 else { return painted }
        var view = RadianceImage(width: size.width, height: size.height)
        for y in 0..<size.height { for x in 0..<size.width { view[x, y] = painted[originX + x, y] } }
        return view
    }

    /// A developed frame as a radiance image (1 = the sensor's white level).
    public static func radiance(of image: LinearImage) -> RadianceImage {
        var radiance = RadianceImage(width: image.width, height: image.height)
        for y in 0..<image.height { for x in 0..<image.width { radiance[x, y] = image[x, y] } }
        return radiance
    }

    /// The subject's mean linear luminance in a developed frame (1 = the white level), from the
    /// scene's ground truth; 0 without a subject.
    public static func subjectLevel(_ developed: LinearImage, truth: SimulatedGroundTruth) -> Double {
        var sum = 0.0, count = 0
        for y in 0..<developed.height {
            for x in 0..<developed.width where truth.subjectMask[y * developed.width + x] == 1 {
                let rgb = developed[x, y]
                sum += Double(BT709.redWeight * rgb.x + BT709.greenWeight * rgb.y + BT709.blueWeight * rgb.z)
                count += 1
            }
        }
        return count > 0 ? sum / Double(count) : 0
    }

    /// The subject's SNR in dB at the sensor: its mean developed level in electrons `e`, shot and
    /// read noise, 20·log10(e / √(e + read²)).
    private func subjectSNR(_ pipeline: ImagePipeline, frame: Frame, truth: SimulatedGroundTruth, camera: SimulatedCamera) -> Double {
        let level = ClosedLoopEvaluation.subjectLevel(pipeline.developed, truth: truth)
        let electrons = max(level, 0) * camera.sensor.fullWellElectrons / frame.metadata.analogueGain
        let read = camera.sensor.readNoiseElectrons
        return 20 * log10(max(electrons, 1e-6) / (electrons + read * read).squareRoot())
    }

    /// `frame` as the same camera would have made it without sensor noise — same exposure, same
    /// moment — through a fresh pipeline with `gain` and `toneMapping`: the picture `frame`'s
    /// output scatters around. Nil when the noise-free camera does not make that frame.
    private func noiseFreePicture(_ scene: SimulatedScene, like frame: Frame, gain: RenderGain,
                                  toneMapping: ToneMapping) async throws -> PixelBuffer? {
        let camera = try makeCamera(scene, sensor: sensor.noiseFree)
        let metadata = frame.metadata
        try camera.updateControls {
            ($0.exposureDuration, $0.analogueGain, $0.digitalGain) =
                (metadata.exposureDuration.seconds, metadata.analogueGain, metadata.digitalGain)
        }
        try camera.startStreaming()
        var clean = try await camera.nextFrame()
        while clean.sequenceNumber < frame.sequenceNumber { clean = try await camera.nextFrame() }
        guard clean.sequenceNumber == frame.sequenceNumber, clean.metadata.isMade(with: camera.requestedControls) else { return nil }
        var pipeline = ImagePipeline()
        try pipeline.develop(clean)
        let picture = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        try pipeline.render(gain, toneMapping: toneMapping, into: picture)
        return picture
    }

    /// The PSNR (dB) of `picture` against `reference` over the subject's pixels, 8-bit RGB; nil
    /// without a subject, infinity when they agree.
    static func subjectPSNR(_ picture: PixelBuffer, _ reference: PixelBuffer, truth: SimulatedGroundTruth) -> Double? {
        let (noisy, clean) = (picture.rgb8(), reference.rgb8())
        var squares = 0.0, count = 0
        for i in truth.subjectMask.indices where truth.subjectMask[i] == 1 {
            for channel in 0..<3 {
                let difference = Double(noisy[i * 3 + channel]) - Double(clean[i * 3 + channel])
                squares += difference * difference
            }
            count += 3
        }
        guard count > 0 else { return nil }
        return 10 * log10(255 * 255 / max(squares / Double(count), 1e-12))
    }

    /// How far the subject's mean radiance lies below the brightest 2% of the scene outside the
    /// sun, in EV; nil without a subject.
    static func subjectBelowHighlights(_ radiance: RadianceImage, truth: SimulatedGroundTruth) -> Double? {
        var subject = 0.0, count = 0
        var others: [Double] = []
        for y in 0..<radiance.height {
            for x in 0..<radiance.width {
                let i = y * radiance.width + x
                let rgb = radiance[x, y]
                let luminance = Double(BT709.redWeight * rgb.x + BT709.greenWeight * rgb.y + BT709.blueWeight * rgb.z)
                if truth.subjectMask[i] == 1 { subject += luminance; count += 1 }
                if truth.sunMask[i] == 0 { others.append(luminance) }
            }
        }
        guard count > 0, subject > 0, let highlights = quantile(others, 1 - SunAwareExposure.highlightBudget) else { return nil }
        return log2(highlights / (subject / Double(count)))
    }

    /// A thumbnail of `scene`'s first frame at its reference exposure, the subject exactly at its
    /// intent, rendered with the plain curve: what subject ΔEV 0 looks like, to judge the subject
    /// and intent by.
    func referenceThumbnail(_ scene: SimulatedScene) async throws -> PixelBuffer {
        let camera = try makeCamera(scene)
        let settings = exposureProgram(of: camera).split(scene.referenceExposure(viewSize: size, sensor: camera.sensor))
        try camera.updateControls { $0.setExposure(settings) }
        try camera.startStreaming()
        var pipeline = ImagePipeline()
        try pipeline.develop(try await camera.nextFrame())
        let output = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        try pipeline.render(.none, toneMapping: .global, into: output)
        return try PreviewScaler.scaled(output, within: Self.thumbnailBound)
    }

    /// A raw simulated camera on `scene` at the evaluation's size and seed, up to 30 fps.
    private func makeCamera(_ scene: SimulatedScene, sensor: SensorModel? = nil) throws -> SimulatedCamera {
        let format = DeviceFormat(size: size, pixelFormat: Self.rawFormat, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format, seed: seed, sensor: sensor ?? self.sensor)
        try camera.updateControls { $0.exposureBias = bias }
        return camera
    }

    /// The camera's exposure program at its frame rate, as the 3A engine runs it.
    private func exposureProgram(of camera: SimulatedCamera) -> ExposureProgram {
        ThreeAEngine.exposureProgram(for: camera.capabilities, frameRate: camera.settings.frameRate)
    }

    /// Subject ΔEV: log2 of the subject's mean linear output over 0.18 × 2^intent.
    static func subjectEV(_ output: GroundTruthReading, truth: SimulatedGroundTruth) -> Double {
        log2(max(output.subjectLinearMean, 1e-6) / (Meter.midGray * pow(2, truth.subjectIntent)))
    }

    /// Settling, oscillation, the settled output figures and the verdict of a run.
    static func judge(_ samples: [Sample], scene: String, algorithm: String, atDeviceLimit: Bool = false,
                      subjectSnrDb: Double = 0) -> Result {
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
        func mean(_ value: KeyPath<Sample, Double>) -> Double { settled.reduce(0) { $0 + $1[keyPath: value] } / count }
        let (subjectEV, clipped, lift) = (mean(\.subjectEV), mean(\.clippedFraction), mean(\.renderGainEV))
        return Result(scene: scene, algorithm: algorithm, convergeFrames: converge, subjectEvError: subjectEV,
                      clippedFraction: clipped, crushedFraction: mean(\.crushedFraction), oscillations: oscillations,
                      sensorExposureEV: final, renderGainEV: lift, atDeviceLimit: atDeviceLimit, subjectSnrDb: subjectSnrDb,
                      verdict: ExposureVerdict(subjectEV: subjectEV, clippedFraction: clipped), samples: samples)
    }
}
