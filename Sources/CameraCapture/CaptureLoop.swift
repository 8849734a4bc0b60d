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
    /// The photos of several frames the stream's outputs ask for, through their connections.
    let requests: FrameRequests
    /// The one being taken.
    var sequence: FrameRequests.Request?
    private var analyzer = StreamAnalyzer()
    private var renderer = StreamRenderer()
    private var gaps = SequenceGapTracker()

    init(device: any CaptureDevice, routes: [OutputRoute], streamIndex: Int, retryInterval: Duration,
         initialInterruption: InterruptionReason?, engine: ThreeAEngine, report: @escaping @Sendable (Report) async -> Void) {
        self.device = device
        self.routes = routes
        self.streamIndex = streamIndex
        self.retryInterval = retryInterval
        self.initialInterruption = initialInterruption
        self.engine = engine
        // A stream that ended during a flash photo or a bracket handed its engine back holding the exposure.
        self.engine.releaseHold()
        self.report = report
        requests = FrameRequests(hasFlash: device.capabilities.hasFlash, deliversRawFrames: device.activeFormat.isRaw)
    }

    /// Runs until cancelled or until the device fails; the photos of several frames still asked for then fail.
    mutating func run() async -> Outcome {
        for route in routes { route.connection.frameRequests = requests }
        defer {
            requests.close()
            for route in routes { route.connection.frameRequests = nil }
        }
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
                frameLost()
                // A device out of buffers fails at once: waiting lets the outputs give some back.
                await Task.yield()
                continue
            } catch CaptureError.interrupted(let reason, _) {
                if let failure = await waitOut(reason) { return failure }
                // The restart dropped any flash waiting for its frame.
                frameLost()
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
            if !device.deliversInRealTime {
                for route in routes { await route.output.awaitCapacity() }
            }
            // A device that never suspends (a file decoded flat out) must not hold the thread.
            await Task.yield()
        }
        return .cancelled(engine)
    }

    /// Tells the photo of several frames being taken that the device lost a frame.
    private mutating func frameLost() {
        sequenceFrameLost()
    }

    /// Analyses `frame`, runs the 3A engine (and a photo of several frames' step), renders its picture and
    /// sends it to every output, after reporting the frames missing before it.
    private mutating func process(_ frame: Frame) throws(CaptureError) {
        for missing in gaps.missingBefore(frame.sequenceNumber) {
            fanOut(DroppedFrame(reason: .discontinuity, sequenceNumber: missing))
            frameLost()
        }
        let statistics: FrameStatistics
        var controls: SensorControls
        let metered = try renderer.meteringFrame(frame)
        let raw: Frame? = if case .bayer16 = frame.buffer.format { frame } else { nil }
        do {
            statistics = try analyzer.analyze(metered.buffer)
        } catch {
            throw .processingFailed(.metering(error))
        }
        startSequence(frame.metadata)
        do {
            controls = try engine.update(metered, statistics: statistics, settings: device.settingsStore, raw: raw)
        } catch {
            throw .processingFailed(.controls(error))
        }
        let step = advanceSequence(frame, statistics: statistics, controls: &controls)
        let gain = sequenceRenderGain(frame.metadata)
        do {
            try device.apply(controls)
        } catch {
            throw .deviceFailure(device: device.uniqueID, detail: "\(error)")
        }
        guard let picture = try renderer.picture(frame, gain: gain, toneMapping: device.settings.toneMapping) else {
            fanOut(DroppedFrame(reason: .outOfBuffers, sequenceNumber: frame.sequenceNumber))
            frameLost()
            return
        }
        let status = engine.status
        let frameDuration = MediaTime.frameDuration(forRate: device.settings.frameRate)
        // A frame for each output whose connection is enabled, and for the one whose sequence it ends.
        let requester = sequence?.requester
        let captured = routes.map { route -> (frame: CapturedFrame, isEnabled: Bool)? in
            let shown = route.connection.snapshot
            guard shown.isEnabled || ObjectIdentifier(route.output) == requester else { return nil }
            let frame = CapturedFrame(frame: picture, statistics: statistics, threeA: status, frameDuration: frameDuration,
                                      shown: shown, streamIndex: streamIndex, sourceIsRaw: raw != nil,
                                      raw: route.output.receivesRawFrames ? raw : nil)
            return (frame, shown.isEnabled)
        }
        finishSequence(step, frames: captured.map { $0?.frame })
        for (route, captured) in zip(routes, captured) {
            if let captured, captured.isEnabled { route.output.receive(captured.frame) }
        }
    }

    private func fanOut(_ drop: DroppedFrame) {
        for route in routes where route.connection.isEnabled { route.output.receive(drop) }
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
