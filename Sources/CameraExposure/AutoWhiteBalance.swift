import CameraCore
import CameraMetering
import Foundation

/// How white balance is chosen.
public enum WhiteBalanceMode: Sendable, Hashable {
    /// Follow the light continuously (grey world without the sky and the lights, see
    /// `WhiteBalanceStatistics`).
    case auto
    /// Keep the current gains whatever the light does.
    case locked
    /// The gains that neutralise light of this temperature and tint.
    case manualTemperature(ColorTemperature)
    /// These gains (each 1…maximum gain).
    case manualGains(WhiteBalanceGains)
}

/// Automatic white balance: estimates the light's colour temperature from each frame and moves
/// the white-balance gains smoothly to neutralise it.
///
/// Each update measures the frame (`WhiteBalanceStatistics`, independent of the gains the frame
/// was made with: a raw frame where there is one, whose clipping the gains cannot move), estimates
/// the light's temperature and tint (grey world over the surfaces in one light, then the closest
/// point of the Planckian locus), takes the gains that neutralise that light as the target, and
/// moves the current gains `smoothing` of the way there in the log domain, so the picture's colour
/// glides rather than jumps.
///
/// ```swift
/// var awb = AutoWhiteBalance()
/// for try await frame in frames {
///     let gains = awb.update(frame: frame)
///     try camera.updateControls { $0.whiteBalance = gains }
/// }
/// ```
public struct AutoWhiteBalance: Sendable {
    public enum State: Sendable, Hashable {
        /// The gains are still moving toward the light's.
        case searching
        /// The gains neutralise the light (within `convergenceTolerance`).
        case converged
        /// The gains are fixed: locked or manual.
        case locked
    }

    public private(set) var mode: WhiteBalanceMode = .auto
    public private(set) var state: State = .searching
    /// The gains to apply now.
    public private(set) var gains: WhiteBalanceGains
    /// The light measured in the last frame that gave an estimate (auto mode only).
    public private(set) var estimate: ColorTemperature?
    /// The largest gain of any channel (gains are normalised so the smallest is 1).
    public let maximumGain: Double
    /// The fraction of the way to the target gains each frame moves, in the log domain (0…1).
    public var smoothing: Double
    /// The largest gain error, in natural-log units, at which the gains count as converged: 1%,
    /// so a photo taken then has the gains the viewfinder settles on within 1%. Once converged
    /// they stay so until the error passes three times this: the estimate under sodium light
    /// (blue gain 5.3× on night-street) moves up to 1.7% from one frame to the next.
    public var convergenceTolerance: Double
    /// Chromaticity tints beyond this (thousandths of Δuv) are taken as this: real lights lie
    /// near the locus, and a scene's own colour should not pull the balance off it.
    public var maximumTint: Double
    public var rejection: WhiteBalanceStatistics.Rejection

    public init(gains: WhiteBalanceGains = .unity, maximumGain: Double = WhiteBalanceGains.defaultMaximumGain, smoothing: Double = 0.3,
                convergenceTolerance: Double = 0.01, maximumTint: Double = 10,
                rejection: WhiteBalanceStatistics.Rejection = WhiteBalanceStatistics.Rejection()) {
        precondition(maximumGain >= 1, "the maximum white-balance gain must be at least 1")
        precondition(smoothing > 0 && smoothing <= 1, "smoothing is a fraction in (0, 1]")
        self.maximumGain = maximumGain
        self.gains = gains.normalised(maximumGain: maximumGain)
        self.smoothing = smoothing
        self.convergenceTolerance = convergenceTolerance
        self.maximumTint = maximumTint
        self.rejection = rejection
    }

    /// Changes the mode. Manual modes take effect at once; `.locked` keeps the current gains;
    /// `.auto` resumes from them. Throws, naming the range, for a manual temperature outside
    /// 2000…12000 K, a tint outside −50…50 or a gain outside 1…`maximumGain`.
    public mutating func setMode(_ mode: WhiteBalanceMode) throws(ValueOutOfRangeError) {
        switch mode {
        case .auto:
            state = .searching
        case .locked:
            state = .locked
        case .manualTemperature(let light):
            gains = try WhiteBalanceGains(temperature: light.kelvin, tint: light.tint, maximumGain: maximumGain)
            state = .locked
        case .manualGains(let manual):
            let range = 1...maximumGain
            _ = try ValueOutOfRangeError.check(manual.red, in: range, setting: "red white-balance gain")
            _ = try ValueOutOfRangeError.check(manual.green, in: range, setting: "green white-balance gain")
            _ = try ValueOutOfRangeError.check(manual.blue, in: range, setting: "blue white-balance gain")
            gains = manual
            state = .locked
        }
        self.mode = mode
    }

    /// Keeps the current gains (`setMode(.locked)`).
    public mutating func lock() {
        mode = .locked
        state = .locked
    }

    /// Measures `frame` (made with the gains in its metadata) without the light sources of
    /// `highlights` (its analysis), balancing for the light on `subject` (the region the exposure
    /// is set for) where several light the frame, and returns the gains to apply.
    public mutating func update(frame: Frame, highlights: HighlightMask? = nil, subject: NormalizedRect? = nil) -> WhiteBalanceGains {
        guard mode == .auto else { return gains }
        return update(WhiteBalanceStatistics(frame: frame, highlights: highlights), subject: subject, applied: frame.metadata.whiteBalanceGains)
    }

    /// Takes one step toward the gains that neutralise the light `statistics` show (on `subject`,
    /// where several light the frame), and returns the gains to apply. Outside auto mode, returns
    /// the fixed gains. When the statistics give no estimate (no usable region), the gains stay.
    /// `applied` are the gains the measured frame was made with (a sensor applies new gains a
    /// frame or two late): the state says whether that frame is balanced — what a photo of it
    /// shows — rather than the gains just asked for.
    public mutating func update(_ statistics: WhiteBalanceStatistics, subject: NormalizedRect? = nil,
                                applied: WhiteBalanceGains? = nil) -> WhiteBalanceGains {
        guard mode == .auto else { return gains }
        guard var light = statistics.estimate(rejection, subject: subject) else { return gains }
        light.tint = min(max(light.tint, -maximumTint), maximumTint)
        estimate = light
        let target = WhiteBalanceGains(neutralising: light, maximumGain: maximumGain)
        let current = log(gains.vector), goal = log(target.vector)
        let next = current + (goal - current) * smoothing
        gains = WhiteBalanceGains(exp(next)).normalised(maximumGain: maximumGain)
        let difference = log((applied ?? gains).vector) - goal
        let error = max(difference.max(), -difference.min())
        let tolerance = state == .converged ? 3 * convergenceTolerance : convergenceTolerance
        state = error <= tolerance ? .converged : .searching
        return gains
    }
}

private func log(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(Foundation.log(v.x), Foundation.log(v.y), Foundation.log(v.z)) }
private func exp(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(Foundation.exp(v.x), Foundation.exp(v.y), Foundation.exp(v.z)) }
