/// Connects cameras to outputs and runs them: the AVCaptureSession triangle of input, outputs and
/// connections, with its pitfalls designed out.
///
/// ```
///                 ┌──────────────────────── CaptureSession ──────────────────────────┐
///  DeviceInput ──►│ capture loop: nextFrame ─► analyse once ─► 3A ─► device.apply    │
///  (camera)       │                  │                                               │
///                 │                  ├─► CaptureConnection ─► VideoDataOutput ──► app │
///                 │                  └─► CaptureConnection ─► PreviewOutput ───► viewers
///  DeviceInput ──►│ its own capture loop and 3A ─► the connections it feeds          │
///  (a second one) └──────────────────────────────────────────────────────────────────┘
/// ```
///
/// The session is an actor: configuration, `start()` and `stop()` run one at a time on its
/// executor, in the order they were called, and never block the caller's thread. Configuration
/// is transactional (`configure`), validated as a whole. While running, each input streams on a
/// capture loop of its own task: it pulls frames from its device, analyses each frame once, lets
/// its own `ThreeAEngine` carry out the device's exposure, focus and white-balance settings, and
/// hands the frame to the outputs that input feeds. An input that feeds none still streams, so
/// its exposure has converged when an output is switched to it. An interrupted device (busy,
/// unplugged) is retried until it works again; what happens is reported on `events()`, and with
/// the device it happened to on `deviceEvents()`.
public actor CaptureSession {
    /// A running stream: the device, the loop's task and the number that tells its frames apart.
    private struct Run {
        let device: any CaptureDevice
        let streamIndex: Int
        let task: Task<CaptureLoop.Outcome, Never>
    }

    /// The inputs, outputs and preset in effect.
    public private(set) var configuration = SessionConfiguration()
    /// True while frames flow, or while an interruption is being waited out.
    public var isRunning: Bool { !runs.isEmpty }
    /// True from an `interrupted` event to its `interruptionEnded` (of any input).
    public var isInterrupted: Bool { !interruptedStreams.isEmpty }

    private let retryInterval: Duration
    private let subscribers = SubscriberList<SessionEvent>(bufferingPolicy: .unbounded)
    private let deviceSubscribers = SubscriberList<SessionDeviceEvent>(bufferingPolicy: .unbounded)
    /// One per input while running.
    private var runs: [Run] = []
    private var streamCount = 0
    /// The streams waiting out an interruption.
    private var interruptedStreams: Set<Int> = []
    /// Each input's 3A engine state between its streams, so exposure does not start over.
    private var engines: [ObjectIdentifier: ThreeAEngine] = [:]
    private var transitionInProgress = false
    private var transitionWaiters: [CheckedContinuation<Void, Never>] = []

    /// A session that, when a device is interrupted, tries it again every
    /// `interruptionRetryInterval`.
    public init(interruptionRetryInterval: Duration = .milliseconds(100)) {
        retryInterval = interruptionRetryInterval
    }

    deinit {
        for run in runs {
            run.task.cancel()
            run.device.stopStreaming()
        }
        subscribers.finish()
        deviceSubscribers.finish()
    }

    /// A new stream of the session's events from now on, for one subscriber (each call makes
    /// another). It buffers until read and ends when the session is deallocated.
    public nonisolated func events() -> AsyncStream<SessionEvent> {
        subscribers.subscribe()
    }

    /// The same events as `events()`, each with the camera it happened to.
    public nonisolated func deviceEvents() -> AsyncStream<SessionDeviceEvent> {
        deviceSubscribers.subscribe()
    }

    /// The connection that feeds `output`, or nil when the output is not in the session.
    public func connection(for output: some CaptureOutput) -> CaptureConnection? {
        configuration.connection(for: output)
    }

    /// Starts every device and its capture loop, then reports `started`. Does nothing when
    /// already running. A busy or missing device does not fail the start: the session reports
    /// `interrupted` and starts streaming when the device becomes available. Throws when there is
    /// no device input, or a device cannot be used at all (not authorized, failed); then none runs.
    public func start() async throws(CaptureError) {
        await beginTransition()
        defer { endTransition() }
        guard runs.isEmpty else { return }
        if let failure = await launchAll() { throw failure.error }
        publish(.started)
    }

    /// Stops the capture loops and the devices, then reports `stopped`. Does nothing when not
    /// running. When it returns no output receives another frame of this run; frames already
    /// delivered or waiting in an output stay valid.
    public func stop() async {
        await beginTransition()
        defer { endTransition() }
        guard !runs.isEmpty else { return }
        await halt()
        publish(.stopped)
    }

    /// Changes inputs, outputs and preset as one transaction: `body` edits a copy, which takes
    /// effect only when it returns and the whole configuration validates — each output fed by one
    /// input of the session, added once and in no other session, the preset supported by every
    /// device, every output able to take its input's format. Errors name the problem and what to do.
    ///
    /// The preset's format is applied to each device. A running session restarts its streams with
    /// the new configuration (outputs see a new stream: sequence numbers start again).
    public func configure(_ body: (inout SessionConfiguration) throws -> Void) async throws {
        await beginTransition()
        defer { endTransition() }
        var candidate = configuration
        try body(&candidate)
        let resolved = try candidate.validate()
        if !runs.isEmpty, candidate.inputs.isEmpty {
            throw CaptureError.invalidConfiguration("a running session needs its device input — stop() it before removing the input")
        }
        let added = candidate.outputs(notIn: configuration)
        try OutputOwnership.claim(added, for: self)
        let wasRunning = !runs.isEmpty
        if wasRunning { await halt() }
        do {
            try Self.applyFormats(resolved)
        } catch {
            OutputOwnership.release(added, from: self)
            if wasRunning { await relaunchAfterReconfiguration() }
            throw error
        }
        commit(candidate)
        if wasRunning { await relaunchAfterReconfiguration() }
    }

    // MARK: Configuration

    /// Sets each device to the format and frame rate its preset chose, all or none: a device that
    /// refuses puts back the ones already set.
    private static func applyFormats(_ resolved: [(input: DeviceInput, choice: (format: DeviceFormat, frameRate: Double)?)]) throws {
        var applied: [(device: any CaptureDevice, previous: DeviceSettings)] = []
        do {
            for case (let input, let choice?) in resolved {
                let device = input.device, previous = device.settings
                try device.configure { settings in
                    settings.activeFormat = choice.format
                    settings.frameRate = choice.frameRate
                }
                applied.append((device, previous))
            }
        } catch {
            for (device, previous) in applied {
                try? device.configure { settings in
                    settings.activeFormat = previous.activeFormat
                    settings.frameRate = previous.frameRate
                }
            }
            throw error
        }
    }

    /// Makes `candidate` the configuration: frees removed outputs and the 3A state of removed
    /// inputs, and connects every output to its input.
    private func commit(_ candidate: SessionConfiguration) {
        OutputOwnership.release(configuration.outputs(notIn: candidate), from: self)
        let kept = Set(candidate.inputs.map { ObjectIdentifier($0.device) })
        engines = engines.filter { kept.contains($0.key) }
        configuration = candidate
        for input in candidate.inputs {
            for route in candidate.routes(fedBy: input) {
                route.connection.connect(to: input.device.position)
                route.output.connected(through: route.connection)
            }
        }
    }

    /// Restarts the streams after a configuration; a device that cannot start ends the run as a
    /// runtime error would.
    private func relaunchAfterReconfiguration() async {
        guard let failure = await launchAll() else { return }
        publish(.runtimeError(failure.error), device: failure.device)
        publish(.stopped)
    }

    // MARK: Streams

    /// Starts a stream for every input, all or none: when one cannot start, the others are
    /// stopped again and the failure returned with its device.
    private func launchAll() async -> (error: CaptureError, device: (any CaptureDevice)?)? {
        guard !configuration.inputs.isEmpty else {
            return (.invalidConfiguration("the session has no device input — add DeviceInput(camera) in configure before start()"), nil)
        }
        for input in configuration.inputs {
            do {
                try launch(input)
            } catch {
                await halt()
                return (error, input.device)
            }
        }
        return nil
    }

    /// Starts `input`'s device (an interruption is waited out by the loop) and its capture loop.
    private func launch(_ input: DeviceInput) throws(CaptureError) {
        let device = input.device
        var interruption: InterruptionReason?
        do {
            try device.startStreaming()
        } catch .interrupted(let reason, _) {
            interruption = reason
        }
        let engine: ThreeAEngine
        do {
            engine = try engines[ObjectIdentifier(device)]
                ?? ThreeAEngine(capabilities: device.capabilities, frameRate: device.settings.frameRate)
        } catch {
            device.stopStreaming()
            throw .invalidConfiguration("\(error)")
        }
        streamCount += 1
        let streamIndex = streamCount
        let loop = CaptureLoop(
            device: device, routes: configuration.routes(fedBy: input), streamIndex: streamIndex, retryInterval: retryInterval,
            initialInterruption: interruption, engine: engine,
            report: { [weak self] report in await self?.loopReported(report, streamIndex: streamIndex) })
        let task = Task.detached { [weak self] in
            var loop = loop
            let outcome = await loop.run()
            await self?.loopEnded(outcome, streamIndex: streamIndex)
            return outcome
        }
        runs.append(Run(device: device, streamIndex: streamIndex, task: task))
    }

    /// Cancels every loop, waits for each to finish its frame, and stops the devices.
    private func halt() async {
        let current = runs
        runs = []
        interruptedStreams = []
        for run in current { run.task.cancel() }
        for run in current {
            let outcome = await run.task.value
            run.device.stopStreaming()
            if case .failed(let error, _) = outcome {
                publish(.runtimeError(error), device: run.device)
            }
            keepEngine(of: outcome, for: run.device)
        }
    }

    private func loopReported(_ report: CaptureLoop.Report, streamIndex: Int) {
        guard let run = runs.first(where: { $0.streamIndex == streamIndex }) else { return }
        switch report {
        case .interrupted(let reason):
            interruptedStreams.insert(streamIndex)
            publish(.interrupted(reason), device: run.device)
        case .interruptionEnded:
            interruptedStreams.remove(streamIndex)
            publish(.interruptionEnded, device: run.device)
        }
    }

    /// A loop that ended by itself failed: its device stops and the session says why; the other
    /// input streams on, and the session stops with the last one.
    private func loopEnded(_ outcome: CaptureLoop.Outcome, streamIndex: Int) {
        guard let index = runs.firstIndex(where: { $0.streamIndex == streamIndex }) else { return }
        let run = runs.remove(at: index)
        interruptedStreams.remove(streamIndex)
        run.device.stopStreaming()
        keepEngine(of: outcome, for: run.device)
        switch outcome {
        case .failed(.ended, _): publish(.ended, device: run.device)
        case .failed(let error, _): publish(.runtimeError(error), device: run.device)
        case .cancelled: break
        }
        if runs.isEmpty { publish(.stopped) }
    }

    private func keepEngine(of outcome: CaptureLoop.Outcome, for device: any CaptureDevice) {
        switch outcome {
        case .cancelled(let engine), .failed(_, let engine): engines[ObjectIdentifier(device)] = engine
        }
    }

    /// Reports `event` on both event streams, with the device it happened to (nil: the session's).
    private func publish(_ event: SessionEvent, device: (any CaptureDevice)? = nil) {
        subscribers.publish(event)
        deviceSubscribers.publish(SessionDeviceEvent(event, device: device?.uniqueID))
    }

    // MARK: Transitions

    /// Waits until no other start, stop or configuration is in progress (first come, first served).
    private func beginTransition() async {
        if transitionInProgress {
            await withCheckedContinuation { transitionWaiters.append($0) }
        } else {
            transitionInProgress = true
        }
    }

    /// Hands the session to the next waiting transition.
    private func endTransition() {
        if transitionWaiters.isEmpty {
            transitionInProgress = false
        } else {
            transitionWaiters.removeFirst().resume()
        }
    }
}
