import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraSimulated
import Foundation

/// `camerasun meter`: runs the camera and reports each frame's brightness, live on a terminal or
/// as one JSON object per frame.
enum MeterCommand {
    /// One frame's report: the `--json` line of CLI.md.
    struct FrameReport: Encodable {
        let frame: UInt64
        let pts: Double
        let brightness: Double
        let linearMean: Double
        let evError: Double
        let exposureTime: Double
        let iso: Double
        let evBias: Double
        /// searching, converged, or locked (a fixed --shutter/--gain).
        let aeState: String
        let clippedFraction: Double
        let sunFraction: Double
        let advice: String
        let dropped: Int
    }

    /// What a report is made with besides the frame.
    struct Options {
        let metering: MeteringMode
        let language: AdviceLanguage
        let frameLimit: Int?
        let json: Bool
        let live: Bool
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let source = try arguments.option("source").map { (text: String) throws(CLIError) in try SourceSpec(parsing: text) }
            ?? .defaultSpec
        let frameLimit = try arguments.positiveInt("frames")
        let bias = try arguments.double("ev") ?? 0
        let shutter = try arguments.shutter()
        let gain = try arguments.gain(baseISO: SimulatedCamera.standardCapabilities.baseISO)
        let width = try arguments.positiveInt("width") ?? 1280
        let height = try arguments.positiveInt("height") ?? 720
        let frameRate = try arguments.double("framerate")
        let seed = try arguments.option("seed", expected: "a whole number ≥ 0") { UInt64($0) } ?? 1
        let realtime = arguments.toggle("realtime") ?? (frameLimit == nil)
        let metering = try arguments.option("metering", expected: "average, centre, spot, spot@x,y, matrix or sun",
                                            MeteringMode.init(parsing:)) ?? .sunAware
        let language = try arguments.option("lang", expected: "en or zh", AdviceLanguage.init(rawValue:)) ?? .english
        try arguments.finish()

        let format = DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: .bgra8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: max(frameRate ?? 30, 30))])
        let camera = try source.openCamera(format: format, frameRate: frameRate, seed: seed, pacing: realtime ? .realtime : .virtual)
        _ = try ValueOutOfRangeError.check(bias, in: camera.capabilities.exposureBias, setting: "--ev", unit: "EV")
        try camera.updateControls { $0.exposureBias = bias }
        // The exposure engine drives the camera unless the user fixes the exposure.
        var engine: AutoExposure?
        if shutter == nil && gain == nil {
            var auto = AutoExposure(program: camera.exposureProgram)
            try auto.setBias(bias)
            if case .spot(let point, _) = metering { try auto.setExposurePoint(point) }
            engine = auto
        } else {
            try ExposureChoice.resolve(shutter: shutter, gain: gain, bias: bias, camera: camera).apply(to: camera)
        }

        let live = !json && terminal.stdoutIsTTY
        if live { terminal.print("\(camera.localizedName), \(format.size) @ \(camera.settings.frameRate) fps — Ctrl-C to stop") }
        let options = Options(metering: metering, language: language, frameLimit: frameLimit, json: json, live: live)
        try camera.startStreaming()
        let interrupted = try await Interrupt.runUntilInterrupted { [engine] in
            try await report(camera, engine: engine, options: options, terminal: terminal)
        }
        if live { terminal.print(interrupted ? "\nstopped" : "") }
    }

    /// Captures frames until `frameLimit` (or cancellation) and reports each one.
    private static func report(_ camera: SimulatedCamera, engine: AutoExposure?, options: Options, terminal: Terminal) async throws {
        var engine = engine
        var dropped = 0
        var rate = FrameRateMeter()
        var flicker = FlickerDetector()
        var count = 0
        let analyzer = FrameAnalyzer()
        while options.frameLimit.map({ count < $0 }) ?? true {
            let frame: Frame
            do {
                frame = try await camera.nextFrame()
            } catch CaptureError.frameDropped {
                dropped += 1
                continue
            }
            count += 1
            let statistics = try analyzer.analyze(frame.buffer)
            let flags = SceneFlags(statistics: statistics, metadata: frame.metadata,
                                   flicker: flicker.update(rowMeans: statistics.rowMeans, rowReadoutTime: frame.metadata.rowReadoutTime))
            let aeState: AEState, evError: Double
            if var auto = engine {
                let settings = auto.update(statistics, metadata: frame.metadata, frameInterval: 1 / camera.settings.frameRate)
                let bias = auto.bias.current
                try camera.updateControls {
                    $0.setExposure(settings)
                    $0.exposureBias = bias
                }
                aeState = auto.state
                evError = auto.evError
                engine = auto
            } else {
                aeState = .locked
                evError = Meter.meter(statistics, mode: options.metering, bias: frame.metadata.exposureBias).evError
            }
            let fps = rate.tick()
            let report = FrameReport(
                frame: frame.sequenceNumber, pts: frame.presentationTime.seconds, brightness: statistics.brightness,
                linearMean: statistics.linearMean, evError: evError,
                exposureTime: frame.metadata.exposureDuration.seconds, iso: frame.metadata.iso, evBias: frame.metadata.exposureBias,
                aeState: aeState.rawValue, clippedFraction: statistics.clippedFraction, sunFraction: statistics.highlights.sunFraction,
                advice: BrightnessAdvice.message(statistics, flags: flags, language: options.language), dropped: dropped)
            if options.json {
                try terminal.json(report)
            } else {
                let line = statusLine(report, fps: fps)
                if options.live { terminal.status(line) } else { terminal.print(line) }
            }
        }
    }

    /// "▕██████░░░░▏ 0.42  EV +0.0 (err -0.3)  1/500 s  ISO 50  clip 1.2%  sun 0.4%  30.0 fps  advice"
    static func statusLine(_ report: FrameReport, fps: Double) -> String {
        "▕\(Terminal.bar(report.brightness))▏ \(String(format: "%.2f", report.brightness))"
            + "  EV \(String(format: "%+.1f", report.evBias)) (error \(String(format: "%+.1f", report.evError)))"
            + "  \(ShutterSpeed.describe(MediaTime(seconds: report.exposureTime, preferredTimescale: 1_000_000)))"
            + "  ISO \(Int(report.iso.rounded()))"
            + "  clip \(String(format: "%.1f", report.clippedFraction * 100))%"
            + "  sun \(String(format: "%.1f", report.sunFraction * 100))%"
            + "  \(String(format: "%.1f", fps)) fps"
            + (report.dropped > 0 ? "  dropped \(report.dropped)" : "")
            + "  \(report.advice)"
    }
}

/// Frames per second over the last second of wall-clock time.
struct FrameRateMeter {
    private var times: [ContinuousClock.Instant] = []

    mutating func tick() -> Double {
        let now = ContinuousClock.now
        times.append(now)
        times.removeAll { now - $0 > .seconds(1) }
        guard let first = times.first, times.count > 1 else { return 0 }
        let span = now - first
        return Double(times.count - 1) / span.seconds
    }
}
