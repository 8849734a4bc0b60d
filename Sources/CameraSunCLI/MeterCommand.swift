import CameraCapture
import CameraCore
import CameraMetering
import CameraSimulated
import Foundation

/// `camerasun meter`: runs the camera and reports each frame's brightness, live on a terminal or
/// as one JSON object per frame.
enum MeterCommand {
    /// One frame's report (the `--json` line). Fields the exposure engine will fill arrive with it.
    struct FrameReport: Encodable {
        let frame: UInt64
        let pts: Double
        let brightness: Double
        let exposureTime: Double
        let iso: Double
        let evBias: Double
        let clippedFraction: Double
        let dropped: Int
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let source = try arguments.option("source").map { (text: String) throws(CLIError) in try SourceSpec(parsing: text) }
            ?? .defaultSpec
        let frameLimit = try arguments.positiveInt("frames")
        let bias = try arguments.double("ev") ?? 0
        let shutter = try arguments.shutter()
        let gain = try arguments.double("gain") ?? arguments.double("iso").map { $0 / SimulatedCamera.standardCapabilities.baseISO }
        let width = try arguments.positiveInt("width") ?? 1280
        let height = try arguments.positiveInt("height") ?? 720
        let frameRate = try arguments.double("framerate")
        let seed = try arguments.option("seed", expected: "a whole number ≥ 0") { UInt64($0) } ?? 1
        let realtime = arguments.toggle("realtime") ?? (frameLimit == nil)
        try arguments.finish()

        let format = DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: .bgra8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: max(frameRate ?? 30, 30))])
        let camera = try source.openCamera(format: format, frameRate: frameRate, seed: seed, pacing: realtime ? .realtime : .virtual)
        try camera.setExposureBias(ValueOutOfRangeError.check(bias, in: camera.capabilities.exposureBias, setting: "--ev", unit: "EV"))
        try ExposureChoice.resolve(shutter: shutter, gain: gain, bias: bias, camera: camera).apply(to: camera)

        let live = !json && terminal.stdoutIsTTY
        if live { terminal.print("\(camera.localizedName), \(format.size) @ \(camera.frameRate) fps — Ctrl-C to stop") }
        let interrupted = try await Interrupt.runUntilInterrupted {
            try await report(camera, frameLimit: frameLimit, json: json, live: live, terminal: terminal)
        }
        if live { terminal.print(interrupted ? "\nstopped" : "") }
    }

    /// Captures frames until `frameLimit` (or cancellation) and reports each one.
    private static func report(_ camera: SimulatedCamera, frameLimit: Int?, json: Bool, live: Bool, terminal: Terminal) async throws {
        var dropped = 0
        var rate = FrameRateMeter()
        var count = 0
        while frameLimit.map({ count < $0 }) ?? true {
            let frame: Frame
            do {
                frame = try await camera.captureFrame()
            } catch is BufferPoolError {
                dropped += 1
                continue
            }
            count += 1
            let luma = LumaSummary(frame.buffer, step: 2)
            let fps = rate.tick()
            let report = FrameReport(frame: frame.sequenceNumber, pts: frame.presentationTime.seconds, brightness: luma.brightness,
                                     exposureTime: frame.metadata.exposureDuration.seconds, iso: frame.metadata.iso,
                                     evBias: frame.metadata.exposureBias, clippedFraction: luma.clippedFraction, dropped: dropped)
            if json {
                try terminal.json(report)
            } else {
                let line = statusLine(report, fps: fps)
                if live { terminal.status(line) } else { terminal.print(line) }
            }
        }
    }

    /// "▕██████░░░░▏ 0.42  EV +0.0  1/500 s  ISO 50  clip 1.2%  30.0 fps"
    static func statusLine(_ report: FrameReport, fps: Double) -> String {
        "▕\(Terminal.bar(report.brightness))▏ \(String(format: "%.2f", report.brightness))"
            + "  EV \(String(format: "%+.1f", report.evBias))"
            + "  \(ShutterSpeed.describe(MediaTime(seconds: report.exposureTime, preferredTimescale: 1_000_000)))"
            + "  ISO \(Int(report.iso.rounded()))"
            + "  clip \(String(format: "%.1f", report.clippedFraction * 100))%"
            + "  \(String(format: "%.1f", fps)) fps"
            + (report.dropped > 0 ? "  dropped \(report.dropped)" : "")
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
        return Double(times.count - 1) / (Double(span.components.seconds) + Double(span.components.attoseconds) * 1e-18)
    }
}
