import Foundation

/// How a scene's light changes over time, as a factor on its radiance.
///
/// The sensor asks for the mean factor over each row's exposure window, so a rolling shutter sees
/// mains flicker as bands unless the exposure spans whole flicker periods.
public enum Illumination: Sendable, Hashable {
    /// Steady light.
    case constant
    /// Light that jumps by `ev` stops at each `time` (seconds), cumulatively.
    case steps([LightStep])
    /// Light on AC mains: intensity `1 + depth·cos(2π·frequency·t)`, where `frequency` is twice the
    /// mains frequency (100 Hz on 50 Hz mains).
    case mainsFlicker(frequency: Double, depth: Double)

    /// The mean light factor over `[start, start + duration]`; the instantaneous factor when
    /// `duration` is 0.
    public func meanFactor(from start: Double, duration: Double) -> Double {
        switch self {
        case .constant:
            return 1
        case .steps(let steps):
            return Illumination.meanStepFactor(steps, from: start, duration: duration)
        case .mainsFlicker(let frequency, let depth):
            let omega = 2 * Double.pi * frequency
            guard duration > 0 else { return 1 + depth * cos(omega * start) }
            return 1 + depth * (sin(omega * (start + duration)) - sin(omega * start)) / (omega * duration)
        }
    }

    private static func meanStepFactor(_ steps: [LightStep], from start: Double, duration: Double) -> Double {
        let end = start + duration
        var factor = 1.0
        var cursor = start
        var integral = 0.0
        for step in steps.sorted(by: { $0.time < $1.time }) {
            if step.time <= start {
                factor *= pow(2, step.ev)
                continue
            }
            if step.time >= end { break }
            integral += factor * (step.time - cursor)
            cursor = step.time
            factor *= pow(2, step.ev)
        }
        guard duration > 0 else { return factor }
        integral += factor * (end - cursor)
        return integral / duration
    }
}

/// A sudden change of scene light by `ev` stops at `time` seconds.
public struct LightStep: Sendable, Hashable {
    public let time: Double
    public let ev: Double

    public init(time: Double, ev: Double) {
        self.time = time
        self.ev = ev
    }
}
