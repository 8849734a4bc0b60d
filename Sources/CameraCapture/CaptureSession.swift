/// Connects a camera to outputs and runs it: the AVCaptureSession triangle of input, outputs and
/// connections, with its pitfalls designed out.
///
/// ```
///                 ┌──────────────────────── CaptureSession ──────────────────────────┐
///  DeviceInput ──►│ capture loop: nextFrame ─► analyse once ─► 3A ─► device.apply    │
///  (camera)       │                  │                                               │
///                 │                  ├─► CaptureConnection ─► VideoDataOutput ──► app │
///                 │                  └─► CaptureConnection ─► PreviewOutput ───► viewers
///                 └──────────────────────────────────────────────────────────────────┘
/// ```
///
/// The session is an actor: configuration, `start()` and `stop()` run one at a time on its
/// executor, in the order they were called, and never block the caller's thread. Configuration
/// is transactional (`configure`), validated as a whole. While running, a capture loop on its own
/// task pulls frames from the device, analyses each frame once, lets the `ThreeAEngine` carry out
/// the device's exposure, focus and white-balance settings, and hands the frame to every output.
/// An interrupted device (busy, unplugged) is retried until it works again; what happens is
/// reported on `events()`.
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
    public var isRunning: Bool { run != nil }
    /// True from an `interrupted` event to its `interruptionEnded`.
    public private(set) var isInterrupted = false

    private let retryInterval: Duration
    private let subscribers = SubscriberList<SessionEvent>(bufferingPolicy: .unbounded)
    private var run: Run?
    private var streamCount = 0
    /// The 3A engine's state between streams of the same device, so exposure does not start over.
    private var threeA: ThreeAEngine?
    private var transitionInProgress = false
    private var transitionWaiters: [CheckedContinuation<Void, Never>] = []

    /// A session that, when its device is interrupted, tries it again every
    /// `interruptionRetryInterval`.
    public init(interruptionRetryInterval: Duration = .milliseconds(100)) {
        retryInterval = interruptionRetryInterval
    }

    deinit {
        run?.task.cancel()
        run?.device.stopStreaming()
        subscribers.finish()
    }

    /// A new stream of the session's events from now on, for one subscriber (each call makes
    /// another). It buffers until read and ends when the session is deallocated.
    public nonisolated func events() -> AsyncStream<SessionEvent> {
        subscribers.subscribe()
    }

    /// The connection that feeds `output`, or nil when the output is not in the session.
    public func connection(for output: some CaptureOutput) -> CaptureConnection? {
        configuration.connection(for: output)
    }

    /// Starts the device and the capture loop, then reports `started`. Does nothing when already
    /// running. A busy or missing device does not fail the start: the session reports
    /// `interrupted` and starts streaming when the device becomes available. Throws when there is
    /// no device input, or the device cannot be used at all (not authorized, failed).
    public func start() async throws(CaptureError) {
        await beginTransition()
        defer { endTransition() }
        guard run == nil else { return }
        try launch()
        subscribers.publish(.started)
    }

    /// Stops the capture loop and the device, then reports `stopped`. Does nothing when not
    /// running. When it returns no output receives another frame of this run; frames already
    /// delivered or waiting in an output stay valid.
    public func stop() async {
        await beginTransition()
        defer { endTransition() }
        guard run != nil else { return }
        await halt()
        subscribers.publish(.stopped)
    }

    /// Changes inputs, outputs and preset as one transaction: `body` edits a copy, which takes
    /// effect only when it returns and the whole configuration validates — one device input for
    /// the outputs, each output added once and in no other session, the preset supported by the
    /// device, every output able to take its format. Errors name the problem and what to do.
    ///
    /// The preset's format is applied to the device. A running session restarts its stream with
    /// the new configuration (outputs see a new stream: sequence numbers start again).
    public func configure(_ body: (inout SessionConfiguration) throws -> Void) async throws {
        await beginTransition()
        defer { endTransition() }
        var candidate = configuration
        try body(&candidate)
        let resolved = try candidate.validate()
        if run != nil, resolved == nil {
            throw CaptureError.invalidConfiguration("a running session needs its device input — stop() it before removing the input")
        }
        try OutputOwnership.claim(candidate.outputs(notIn: configuration), for: self)
        let wasRunning = run != nil
        if wasRunning { await halt() }
        if let resolved, let choice = resolved.choice {
            let device = resolved.input.device
            do {
                try device.configure { settings in
                    settings.activeFormat = choice.format
                    settings.frameRate = choice.frameRate
                }
            } catch {
                OutputOwnership.release(candidate.outputs(notIn: configuration), from: self)
                if wasRunning { relaunchAfterReconfiguration() }
                throw error
            }
        }
        commit(candidate, input: resolved?.input)
        if wasRunning { relaunchAfterReconfiguration() }
    }

    // MARK: Configuration

    /// Makes `candidate` the configuration: frees removed outputs, connects every output to the input.
    private func commit(_ candidate: SessionConfiguration, input: DeviceInput?) {
        OutputOwnership.release(configuration.outputs(notIn: candidate), from: self)
        if configuration.inputs.first?.device !== input?.device { threeA = nil }
        configuration = candidate
        for route in candidate.routes {
            route.connection.connect(to: input?.device.position ?? .unspecified)
        }
    }

    /// Restarts the stream after a configuration; a device that cannot start ends the run as a
    /// runtime error would.
    private func relaunchAfterReconfiguration() {
        do {
            try launch()
        } catch {
            subscribers.publish(.runtimeError(error))
            subscribers.publish(.stopped)
        }
    }

    // MARK: Streams

    /// Starts the device (an interruption is waited out by the loop) and the capture loop.
    private func launch() throws(CaptureError) {
        guard let device = configuration.inputs.first?.device else {
            throw .invalidConfiguration("the session has no device input — add DeviceInput(camera) in configure before start()")
        }
        var interruption: InterruptionReason?
        do {
            try device.startStreaming()
        } catch .interrupted(let reason, _) {
            interruption = reason
        }
        let engine: ThreeAEngine
        do {
            engine = try threeA ?? ThreeAEngine(capabilities: device.capabilities, frameRate: device.settings.frameRate)
        } catch {
            device.stopStreaming()
            throw .invalidConfiguration("\(error)")
        }
        streamCount += 1
        let streamIndex = streamCount
        let loop = CaptureLoop(
            device: device, routes: configuration.routes, streamIndex: streamIndex, retryInterval: retryInterval,
            initialInterruption: interruption, engine: engine,
            report: { [weak self] report in await self?.loopReported(report, streamIndex: streamIndex) })
        let task = Task.detached { [weak self] in
            var loop = loop
            let outcome = await loop.run()
            await self?.loopEnded(outcome, streamIndex: streamIndex)
            return outcome
        }
        run = Run(device: device, streamIndex: streamIndex, task: task)
    }

    /// Cancels the loop, waits for it to finish its frame, and stops the device.
    private func halt() async {
        guard let current = run else { return }
        run = nil
        isInterrupted = false
        current.task.cancel()
        let outcome = await current.task.value
        current.device.stopStreaming()
        if case .failed(let error, _) = outcome {
            subscribers.publish(.runtimeError(error))
        }
        keepEngine(of: outcome)
    }

    private func loopReported(_ report: CaptureLoop.Report, streamIndex: Int) {
        guard run?.streamIndex == streamIndex else { return }
        switch report {
        case .interrupted(let reason):
            isInterrupted = true
            subscribers.publish(.interrupted(reason))
        case .interruptionEnded:
            isInterrupted = false
            subscribers.publish(.interruptionEnded)
        }
    }

    /// A loop that ended by itself failed: the session stops and says why.
    private func loopEnded(_ outcome: CaptureLoop.Outcome, streamIndex: Int) {
        guard let current = run, current.streamIndex == streamIndex else { return }
        run = nil
        isInterrupted = false
        current.device.stopStreaming()
        keepEngine(of: outcome)
        if case .failed(let error, _) = outcome {
            subscribers.publish(.runtimeError(error))
        }
        subscribers.publish(.stopped)
    }

    private func keepEngine(of outcome: CaptureLoop.Outcome) {
        switch outcome {
        case .cancelled(let engine), .failed(_, let engine): threeA = engine
        }
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
