import CameraCore
import CameraMetering

/// One stream of a running session, on a task of its own: pulls frames from the device, analyses
/// each once, runs the 3A engine and applies its controls, and hands the frame to every output.
/// Interruptions are waited out here, retrying the device every `retryInterval`; the session hears
/// of them through `report`.
struct CaptureLoop: Sendable {
    /// What the loop tells the session while it runs.
    enum Report: Sendable {
        case interrupted(InterruptionReason)
        case interruptionEnded
    }

    /// How the loop ended, with the 3A engine's state for the next stream.
    enum Outcome: Sendable {
        case cancelled(ThreeAEngine)
        case failed(CaptureError, ThreeAEngine)
    }

    let device: any CaptureDevice
    let routes: [OutputRoute]
    let streamIndex: Int
    let retryInterval: Duration
    /// Set when the device could not start streaming: the loop begins by waiting it out.
    let initialInterruption: InterruptionReason?
    let report: @Sendable (Report) async -> Void
    var engine: ThreeAEngine
    private let analyzer = FrameAnalyzer()
    private var gaps = SequenceGapTracker()

    init(device: any CaptureDevice, routes: [OutputRoute], streamIndex: Int, retryInterval: Duration,
         initialInterruption: InterruptionReason?, engine: ThreeAEngine, report: @escaping @Sendable (Report) async -> Void) {
        self.device = device
        self.routes = routes
        self.streamIndex = streamIndex
        self.retryInterval = retryInterval
        self.initialInterruption = initialInterruption
        self.engine = engine
        self.report = report
    }

    /// Runs until cancelled or until the device fails.
    mutating func run() async -> Outcome {
        if let initialInterruption, let failure = await waitOut(initialInterruption) {
            return failure
        }
        while !Task.isCancelled {
            let frame: Frame
            do {
                frame = try await device.nextFrame()
            } catch CaptureError.frameDropped(let reason) {
                gaps.deviceDropped()
                fanOut(DroppedFrame(reason: reason, sequenceNumber: nil))
                continue
            } catch CaptureError.interrupted(let reason, _) {
                if let failure = await waitOut(reason) { return failure }
                continue
            } catch {
                if Task.isCancelled { break }
                return .failed(error as? CaptureError ?? .deviceFailure(device: device.uniqueID, detail: "\(error)"), engine)
            }
            do {
                try process(frame)
            } catch {
                return .failed(error, engine)
            }
            // A device that never suspends (a file decoded flat out) must not hold the thread.
            await Task.yield()
        }
        return .cancelled(engine)
    }

    /// Analyses `frame`, runs the 3A engine and sends the frame to every output, after reporting
    /// the frames missing before it.
    private mutating func process(_ frame: Frame) throws(CaptureError) {
        for missing in gaps.missingBefore(frame.sequenceNumber) {
            fanOut(DroppedFrame(reason: .discontinuity, sequenceNumber: missing))
        }
        let statistics: FrameStatistics, controls: SensorControls
        do {
            statistics = try analyzer.analyze(frame.buffer)
            controls = try engine.update(frame, statistics: statistics, settings: device.settingsStore)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
        do {
            try device.apply(controls)
        } catch {
            throw .deviceFailure(device: device.uniqueID, detail: "\(error)")
        }
        let status = engine.status
        let frameDuration = MediaTime.frameDuration(forRate: device.settings.frameRate)
        for route in routes {
            route.output.receive(CapturedFrame(frame: frame, statistics: statistics, threeA: status, frameDuration: frameDuration,
                                               connection: route.connection, streamIndex: streamIndex))
        }
    }

    private func fanOut(_ drop: DroppedFrame) {
        for route in routes { route.output.receive(drop) }
    }

    /// Reports the interruption, then restarts the device every `retryInterval` until it streams
    /// again (reporting the end) or the loop is cancelled. Returns the outcome when the loop must end.
    private func waitOut(_ reason: InterruptionReason) async -> Outcome? {
        await report(.interrupted(reason))
        while true {
            do {
                try await Task.sleep(for: retryInterval)
            } catch {
                return .cancelled(engine)
            }
            device.stopStreaming()
            do {
                try device.startStreaming()
                await report(.interruptionEnded)
                return nil
            } catch .interrupted {
                continue
            } catch {
                return .failed(error, engine)
            }
        }
    }
}
