import CameraCore

/// Contrast-detection autofocus: a hill-climb of the focus region's sharpness over lens position,
/// run one frame at a time.
///
/// Each frame, measure the focus region's sharpness (`CameraMetering.Sharpness.measure`) and pass
/// it with the lens position in that frame's metadata; do what the returned command says:
///
/// ```swift
/// var focus = try AutoFocus(mode: .autoOnce)
/// while true {
///     let frame = try await camera.nextFrame()
///     let sharpness = try Sharpness.measure(frame.buffer, region: subject)
///     switch focus.update(sharpness: sharpness, lensPosition: frame.metadata.lensPosition) {
///     case .moveLens(let position): try camera.updateControls { $0.lensPosition = position }
///     case .done: break
///     }
/// }
/// ```
///
/// The search:
/// 1. **Coarse**: from where the lens is, step by `coarseStep` towards the farther end of the range
///    until the sharpness falls `significantDrop` below the best so far (the peak is passed) or the
///    range ends. If that never rose `significantDrop` above the start, try the other side of the start.
/// 2. **No texture?** If no sample differs from the best by `significantDrop`, the region is flat:
///    the state becomes `failed` and the lens goes back to where it started.
/// 3. **Fine**: the samples tied with the best (within `tieTolerance`, i.e. noise) form the top;
///    step by `fineStep` outward from its ends until a lower sample lies within one fine step on
///    each side (or the range ends).
/// 4. **Fit**: a parabola through the top and the lower sample on each side; its vertex is the
///    focus. (The top is usually one sample — the best three samples then define the parabola —
///    but is several when the depth of field is wider than a fine step; its centre then stands for it.)
///
/// A reading counts only once the frame's lens position is within `positionTolerance` of the
/// position asked for, so a lens that takes a few frames to move is waited for (for up to
/// `settleFrames` frames; after that the reading is taken wherever the lens is).
public struct AutoFocus: Sendable {
    /// The search's step sizes and thresholds. Fractions are of the best sharpness seen.
    public struct Configuration: Sendable, Hashable {
        /// Lens-position step of the coarse scan.
        public var coarseStep: Double
        /// Lens-position step of the fine scan around the peak.
        public var fineStep: Double
        /// Samples within this fraction of the best count as equally sharp (sensor noise).
        public var tieTolerance: Double
        /// A coarse sample this fraction below the best means the peak is passed; a search in which
        /// no sample is this far below the best found no texture.
        public var significantDrop: Double
        /// Continuous mode: the fraction by which sharpness must fall from its focused value (or rise
        /// from its value after a failed search) to count as a change of scene.
        public var refocusChange: Double
        /// Continuous mode: consecutive changed frames that start a new search.
        public var refocusFrames: Int
        /// A lens within this of the requested position has arrived.
        public var positionTolerance: Double
        /// Frames to wait for the lens to arrive before taking the reading wherever it is.
        public var settleFrames: Int
        /// A search that has used this many frames stops and takes the best it has.
        public var maximumSearchFrames: Int

        public init(coarseStep: Double = 0.1, fineStep: Double = 0.025, tieTolerance: Double = 0.05,
                    significantDrop: Double = 0.15, refocusChange: Double = 0.25, refocusFrames: Int = 3,
                    positionTolerance: Double = 0.001, settleFrames: Int = 4, maximumSearchFrames: Int = 60) {
            precondition(coarseStep > fineStep && fineStep > 0, "autofocus needs coarseStep > fineStep > 0")
            precondition(tieTolerance < significantDrop, "autofocus needs tieTolerance < significantDrop")
            precondition(refocusFrames >= 1 && settleFrames >= 0 && maximumSearchFrames >= 2)
            self.coarseStep = coarseStep
            self.fineStep = fineStep
            self.tieTolerance = tieTolerance
            self.significantDrop = significantDrop
            self.refocusChange = refocusChange
            self.refocusFrames = refocusFrames
            self.positionTolerance = positionTolerance
            self.settleFrames = settleFrames
            self.maximumSearchFrames = maximumSearchFrames
        }
    }

    public let configuration: Configuration
    public private(set) var mode: FocusMode
    public private(set) var state: FocusState
    /// The readings of the latest search, in the order they were taken.
    public private(set) var samples: [FocusSample] = []
    /// Frames the latest search has used, including waits for the lens and the final move.
    public private(set) var searchFrames = 0
    /// The lens position last asked for (the focus, once focused), or nil before any request.
    public private(set) var requestedLensPosition: Double?

    /// Where the search is.
    private enum Phase: Sendable, Hashable {
        /// The next frame starts a search from wherever the lens is.
        case start
        /// Stepping coarsely in `direction` (+1 towards infinity, −1 towards near).
        case coarse(direction: Double, turned: Bool)
        /// Stepping finely outward from the top.
        case fine
        /// Moving to the final position; `outcome` becomes the state when the lens gets there.
        case settling(outcome: FocusState)
        /// At rest; `reference` is the sharpness there, `changedFrames` the run of frames unlike it.
        case resting(reference: Double, changedFrames: Int)
    }

    private var phase = Phase.start
    private var origin = FocusSample(lensPosition: 0, sharpness: 0)
    private var waitedFrames = 0

    /// Autofocus in `mode` (manual positions are checked against 0…1).
    public init(mode: FocusMode = .continuous, configuration: Configuration = Configuration()) throws(ValueOutOfRangeError) {
        self.configuration = configuration
        self.mode = try mode.validated()
        state = mode.searches ? .searching : .locked
    }

    /// Changes mode. Entering `autoOnce` or `continuous` from `locked` or `manual` starts a search;
    /// switching between the two keeps the current search or focus.
    public mutating func setMode(_ newMode: FocusMode) throws(ValueOutOfRangeError) {
        let newMode = try newMode.validated()
        let wasSearching = mode.searches
        mode = newMode
        if !newMode.searches {
            state = .locked
        } else if !wasSearching {
            restart()
        }
    }

    /// Starts a new search with the next frame (a tap to focus). Ignored in locked and manual modes.
    public mutating func restart() {
        guard mode.searches else { return }
        phase = .start
        state = .searching
    }

    /// Takes the sharpness of the focus region in the latest frame and the lens position that frame
    /// was captured with, and says where the lens should go next.
    public mutating func update(sharpness: Double, lensPosition: Double) -> FocusCommand {
        switch mode {
        case .locked:
            return .done
        case .manual(let target):
            requestedLensPosition = target
            return abs(lensPosition - target) <= configuration.positionTolerance ? .done : .moveLens(to: target)
        case .autoOnce, .continuous:
            break
        }
        if case .resting(let reference, let changedFrames) = phase {
            return watch(sharpness: sharpness, lensPosition: lensPosition, reference: reference, changedFrames: changedFrames)
        }
        searchFrames += 1
        if phase != .start, let target = requestedLensPosition,
           abs(lensPosition - target) > configuration.positionTolerance, waitedFrames < configuration.settleFrames {
            waitedFrames += 1
            return .moveLens(to: target)
        }
        waitedFrames = 0
        let sample = FocusSample(lensPosition: lensPosition, sharpness: sharpness)
        switch phase {
        case .start:
            return begin(at: sample)
        case .coarse(let direction, let turned):
            samples.append(sample)
            return searchFrames >= configuration.maximumSearchFrames ? finish() : coarse(after: sample, direction: direction, turned: turned)
        case .fine:
            samples.append(sample)
            return searchFrames >= configuration.maximumSearchFrames ? finish() : fineStepOrFinish()
        case .settling(let outcome):
            state = outcome
            phase = .resting(reference: sharpness, changedFrames: 0)
            return .done
        case .resting:
            return .done  // handled above
        }
    }

    // MARK: Search

    /// Starts a search at the lens's current position, heading for the farther end of the range.
    private mutating func begin(at sample: FocusSample) -> FocusCommand {
        state = .searching
        samples = [sample]
        searchFrames = 1
        origin = sample
        let direction: Double = sample.lensPosition <= 0.5 ? 1 : -1
        phase = .coarse(direction: direction, turned: false)
        guard let next = position(from: sample.lensPosition, by: direction * configuration.coarseStep) else { return finish() }
        return move(to: next)
    }

    /// One coarse step: carry on while the peak is not passed and the range lasts; then turn back
    /// past the start if this way never rose significantly above it, else refine.
    private mutating func coarse(after sample: FocusSample, direction: Double, turned: Bool) -> FocusCommand {
        let best = bestSample
        let passedPeak = sample.sharpness < best.sharpness * (1 - configuration.significantDrop)
        if !passedPeak, let next = position(from: sample.lensPosition, by: direction * configuration.coarseStep) {
            return move(to: next)
        }
        let climbed = origin.sharpness < best.sharpness * (1 - configuration.significantDrop)
        if !climbed, !turned, let next = position(from: origin.lensPosition, by: -direction * configuration.coarseStep) {
            phase = .coarse(direction: -direction, turned: true)
            return move(to: next)
        }
        if isFlat { return finish() }
        phase = .fine
        return fineStepOrFinish()
    }

    /// Extends the top (the samples tied with the best) by one fine step on a side where no lower
    /// sample lies within a fine step; once both sides are bounded, finishes.
    private mutating func fineStepOrFinish() -> FocusCommand {
        let top = topRun()
        let reach = configuration.fineStep * 1.1
        let (low, high) = (top.samples[top.low].lensPosition, top.samples[top.high].lensPosition)
        let atEnd = configuration.positionTolerance
        let lowBounded = top.low > 0 ? low - top.samples[top.low - 1].lensPosition <= reach : low <= atEnd
        if !lowBounded { return move(to: low - configuration.fineStep) }
        let highBounded = top.high < top.samples.count - 1 ? top.samples[top.high + 1].lensPosition - high <= reach : high >= 1 - atEnd
        if !highBounded { return move(to: high + configuration.fineStep) }
        return finish()
    }

    /// Ends the search: moves to the fitted peak (focused) or back to the start (failed, when the
    /// samples are flat).
    private mutating func finish() -> FocusCommand {
        let outcome: FocusState = isFlat ? .failed : .focused
        phase = .settling(outcome: outcome)
        return move(to: outcome == .focused ? peak() : origin.lensPosition)
    }

    /// The fitted focus: the vertex of the parabola through the top (its centre, at the best
    /// sharpness) and the lower sample on each side, kept between the midpoints to those samples.
    /// At an end of the range, the centre of the top.
    private func peak() -> Double {
        let top = topRun()
        let (samples, low, high) = (top.samples, top.low, top.high)
        let centre = (samples[low].lensPosition + samples[high].lensPosition) / 2
        guard low > 0, high < samples.count - 1 else { return centre }
        let left = samples[low - 1], right = samples[high + 1]
        let vertex = Self.parabolaVertex(left, FocusSample(lensPosition: centre, sharpness: bestSample.sharpness), right)
        let lowerLimit = (left.lensPosition + samples[low].lensPosition) / 2
        let upperLimit = (samples[high].lensPosition + right.lensPosition) / 2
        return min(max(vertex, lowerLimit), upperLimit)
    }

    /// The samples sorted by lens position, and the index range of the run tied with the best.
    private func topRun() -> (samples: [FocusSample], low: Int, high: Int) {
        let sorted = samples.sorted { $0.lensPosition < $1.lensPosition }
        let bestIndex = sorted.indices.max { sorted[$0].sharpness < sorted[$1].sharpness }!
        let threshold = sorted[bestIndex].sharpness * (1 - configuration.tieTolerance)
        var low = bestIndex, high = bestIndex
        while low > 0, sorted[low - 1].sharpness >= threshold { low -= 1 }
        while high < sorted.count - 1, sorted[high + 1].sharpness >= threshold { high += 1 }
        return (sorted, low, high)
    }

    /// The x of the vertex of the parabola through three points (the middle one when they are in line).
    static func parabolaVertex(_ a: FocusSample, _ b: FocusSample, _ c: FocusSample) -> Double {
        let (ab, cb) = (a.lensPosition - b.lensPosition, c.lensPosition - b.lensPosition)
        let numerator = ab * ab * (b.sharpness - c.sharpness) - cb * cb * (b.sharpness - a.sharpness)
        let denominator = ab * (b.sharpness - c.sharpness) - cb * (b.sharpness - a.sharpness)
        guard denominator != 0 else { return b.lensPosition }
        return b.lensPosition + 0.5 * numerator / denominator
    }

    private var bestSample: FocusSample {
        samples.max { $0.sharpness < $1.sharpness }!
    }

    /// True when no sample is `significantDrop` below the best: nothing in the region changes with
    /// focus, so there is no texture to focus on.
    private var isFlat: Bool {
        let sharpness = samples.map(\.sharpness)
        let best = sharpness.max()!, worst = sharpness.min()!
        return best <= 0 || best - worst < best * configuration.significantDrop
    }

    /// `from + step` kept in 0…1, or nil when `from` is already at that end.
    private func position(from: Double, by step: Double) -> Double? {
        let next = Self.tidy(from + step)
        return abs(next - from) > configuration.positionTolerance ? next : nil
    }

    /// `position` in 0…1, rounded to a millionth so that repeated steps land on round values
    /// (ten steps of 0.1 from 0 reach 1, not 0.9999999999999999).
    private static func tidy(_ position: Double) -> Double {
        (min(max(position, 0), 1) * 1e6).rounded() / 1e6
    }

    private mutating func move(to position: Double) -> FocusCommand {
        let position = Self.tidy(position)
        requestedLensPosition = position
        return .moveLens(to: position)
    }

    // MARK: Rest

    /// At rest: auto-once holds; continuous counts frames whose sharpness has changed (fallen from
    /// the focused value, or risen from a failed search's) and searches again after enough of them.
    private mutating func watch(sharpness: Double, lensPosition: Double, reference: Double, changedFrames: Int) -> FocusCommand {
        guard mode == .continuous else { return .done }
        let changed = state == .failed
            ? sharpness > reference * (1 + configuration.refocusChange)
            : sharpness < reference * (1 - configuration.refocusChange)
        let count = changed ? changedFrames + 1 : 0
        guard count >= configuration.refocusFrames else {
            phase = .resting(reference: reference, changedFrames: count)
            return .done
        }
        return begin(at: FocusSample(lensPosition: lensPosition, sharpness: sharpness))
    }
}
