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
        /// EV the image pipeline lifts this frame's subject by (the sensor is exposed for the highlights).
        let renderGainEV: Double
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
        let frameLimit = try arguments.integer("frames", in: 1...Int(Int32.max))
        let capture = try CaptureFlags(&arguments, size: PixelSize(width: 1280, height: 720), realtime: frameLimit == nil)
        let bias = try arguments.double("ev") ?? 0
        let shutter = try arguments.shutter()
        let gain = try arguments.gain()
        let metering = try arguments.option("metering", expected: "average, centre, spot, spot@x,y, matrix or sun",
                                            MeteringMode.init(parsing:)) ?? .sunAware
        let language = try arguments.option("lang", expected: "en or zh", AdviceLanguage.init(rawValue:)) ?? .english
        try arguments.finish()

        let opened = try capture.openCamera()
        let camera = opened.device
        if let note = opened.fallbackNote { terminal.error(note) }
        _ = try ValueOutOfRangeError.check(bias, in: camera.capabilities.exposureBias, setting: "--ev", unit: "EV")
        // The session's exposure engine drives the camera unless the user fixes the exposure.
        let fixed = shutter == nil && gain == nil ? nil : try ExposureChoice.resolve(shutter: shutter, gain: gain, bias: bias, camera: camera)
        try camera.configure { settings in
            settings.exposureBias = bias
            settings.meteringMode = metering
            if let fixed { settings.exposureMode = .custom(duration: fixed.duration.seconds, gain: fixed.gain) }
        }
        // Virtual pacing runs as fast as the reports are written, so every frame is reported; in
        // real time a slow terminal drops late frames rather than falling behind the camera.
        let output = VideoDataOutput(alwaysDiscardsLateFrames: capture.realtime)
        let session = CaptureSession()
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            try config.add(output)
        }

        let live = !json && terminal.stdoutIsTTY
        if live { terminal.print("\(camera.localizedName), \(camera.activeFormat.size) @ \(String(format: "%g", camera.settings.frameRate)) fps — Ctrl-C to stop") }
        let options = Options(metering: metering, language: language, frameLimit: frameLimit, json: json, live: live)
        // Subscribed before the start, so that a camera that ends at once is not missed.
        let ending = session.events()
        try await session.start()
        let events = Task { await reportInterruptions(session.events(), terminal: terminal) }
        let delivery = DeliveryCount()
        let interrupted: Bool
        do {
            // Frames until the limit, a signal, or the camera's end (a file played once) or failure.
            interrupted = try await Interrupt.runUntilSignalled(finishing: "stopping the camera", terminal: terminal) {
                try await SessionEnding.run({ try await report(output, options: options, delivery: delivery, terminal: terminal) },
                                           endingWith: ending)
            }.signal != nil
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
        events.cancel()
        if live { terminal.print(interrupted ? "\nstopped" : "") }
        let seen = delivery.value
        if capture.realtime, let shortfall = FrameRateShortfall(frames: seen.frames, seconds: seen.seconds, dropped: output.statistics.totalDropped,
                                                                requested: camera.settings.frameRate, size: camera.activeFormat.size) {
            terminal.error("camerasun: warning: \(shortfall)")
        }
    }

    /// Reports frames until `frameLimit` (or cancellation), each with the frames dropped so far.
    private static func report(_ output: VideoDataOutput, options: Options, delivery: DeliveryCount, terminal: Terminal) async throws {
        var rate = FrameRateMeter()
        var count = 0
        for await captured in output.frames {
            try Task.checkCancellation()
            count += 1
            delivery.tick()
            let statistics = captured.statistics, metadata = captured.metadata
            let threeA = captured.threeA
            let flags = SceneFlags(statistics: statistics, metadata: metadata, flicker: threeA.flicker)
            // A fixed exposure has no loop to report an error: meter it in the chosen mode.
            let evError = if case .custom = threeA.exposureMode {
                Meter.meter(statistics, mode: options.metering, bias: metadata.exposureBias).evError
            } else {
                threeA.exposureError
            }
            let report = FrameReport(
                frame: captured.sequenceNumber, pts: captured.presentationTime.seconds, brightness: statistics.brightness,
                linearMean: statistics.linearMean, evError: evError,
                exposureTime: metadata.exposureDuration.seconds, iso: metadata.iso, evBias: metadata.exposureBias,
                renderGainEV: threeA.renderGain.ev,
                aeState: threeA.exposureState.rawValue, clippedFraction: statistics.clippedFraction,
                sunFraction: statistics.highlights.sunFraction,
                advice: BrightnessAdvice.message(statistics, flags: flags, language: options.language,
                                                 subjectExposed: threeA.exposedForSubject),
                dropped: output.statistics.totalDropped)
            if options.json {
                try terminal.json(report)
            } else {
                let line = statusLine(report, fps: rate.tick())
                if options.live { terminal.status(line) } else { terminal.print(line) }
            }
            if let limit = options.frameLimit, count >= limit { return }
        }
    }

    /// Says on stderr when the camera stops and recovers (a device taken by another program, unplugged);
    /// a failure is the command's error.
    private static func reportInterruptions(_ events: AsyncStream<SessionEvent>, terminal: Terminal) async {
        for await event in events {
            switch event {
            case .interrupted(let reason): terminal.error("camerasun: camera interrupted (\(reason.rawValue)) — waiting for it to come back")
            case .interruptionEnded: terminal.error("camerasun: camera back")
            case .started, .stopped, .runtimeError, .ended: break
            }
        }
    }

    /// "▕██████░░░░▏ 0.42  EV +0.0 (err -0.3)  1/500 s  ISO 50  clip 1.2%  sun 0.4%  30.0 fps  advice"
    /// ("– fps" in the first second, before the rate is known).
    static func statusLine(_ report: FrameReport, fps: Double) -> String {
        "▕\(Terminal.bar(report.brightness))▏ \(String(format: "%.2f", report.brightness))"
            + "  EV \(String(format: "%+.1f", report.evBias)) (error \(String(format: "%+.1f", report.evError)))"
            + "  \(ShutterSpeed.describe(MediaTime(seconds: report.exposureTime, preferredTimescale: 1_000_000)))"
            + "  ISO \(Int(report.iso.rounded()))"
            + "  clip \(String(format: "%.1f", report.clippedFraction * 100))%"
            + "  sun \(String(format: "%.1f", report.sunFraction * 100))%"
            + "  \(fps > 0 ? String(format: "%.1f", fps) : "–") fps"
            + (report.dropped > 0 ? "  dropped \(report.dropped)" : "")
            + "  \(report.advice)"
    }
}

/// Frames reported and the wall-clock time from the first to the last, shared with the task
/// that reports them.
final class DeliveryCount: Sendable {
    private let state = Locked<(frames: Int, first: ContinuousClock.Instant?, last: ContinuousClock.Instant?)>((0, nil, nil))

    func tick() {
        let now = ContinuousClock.now
        state.withLock { $0 = ($0.frames + 1, $0.first ?? now, now) }
    }

    var value: (frames: Int, seconds: Double) {
        state.withLock { state in
            guard let first = state.first, let last = state.last else { return (0, 0) }
            return (state.frames, (last - first).seconds)
        }
    }
}
