import CameraCore
import CameraMetering
import Foundation

/// One flash photo as the capture loop takes it, frame by frame, with the 3A engine holding
/// exposure, white balance and focus (`ThreeAEngine.holdForFlash`):
///
/// ```
///  settling ── a frame made with the held exposure and lens: the ambient frame ──► fire the pre-flash
///  pre-flash ── the frame the pre-flash lit (its metadata says so) ──► FlashExposure ──► fire the flash
///  flash ── the frame the flash lit ──► the photo
/// ```
///
/// The lit frames are found from their metadata's `flashPower`, never by counting frames, so a
/// device that fires a frame later works as well. The last unlit frame before the pre-flash is the
/// ambient frame it is compared with.
struct FlashSequence {
    /// What the loop does after a frame.
    enum Step {
        /// Nothing yet.
        case wait
        /// Fire the flash at this power on an upcoming frame.
        case fire(power: Double)
        /// This frame is the photo, lit as `FlashExposure` decided.
        case lit(FlashExposure)
        /// The flash never fired; the message says so.
        case failed(String)
    }

    private enum Phase {
        case settling
        case preFlash(ambient: (statistics: FrameStatistics, metadata: FrameMetadata))
        case flash(FlashExposure)
    }

    /// Frames a sequence may take: time for the held exposure to reach the sensor (two frames on
    /// the simulated camera) and each flash to fire, with room to spare.
    static let frameLimit = 12
    /// Frames to wait for the held exposure and lens before metering anyway (the metering reads
    /// each frame's own exposure, so a device that never matches it exactly is still measured).
    static let settleLimit = 4

    private var phase = Phase.settling
    private var frames = 0

    /// Takes the next frame, made under `held` controls while the exposure bias was `bias`.
    mutating func advance(_ statistics: FrameStatistics, metadata: FrameMetadata, held: SensorControls, bias: Double) -> Step {
        frames += 1
        guard frames <= Self.frameLimit else {
            return .failed("the flash did not fire within \(Self.frameLimit) frames of the request")
        }
        let lit = metadata.flashPower != nil
        switch phase {
        case .settling:
            guard !lit, Self.isMade(metadata, with: held) || frames > Self.settleLimit else { return .wait }
            phase = .preFlash(ambient: (statistics, metadata))
            return .fire(power: FlashExposure.preFlashPower)
        case .preFlash(let ambient):
            guard lit else {
                phase = .preFlash(ambient: (statistics, metadata))
                return .wait
            }
            let exposure = FlashExposure(ambient: ambient, preFlash: (statistics, metadata), target: Meter.midGrey * pow(2, bias))
            phase = .flash(exposure)
            return .fire(power: exposure.power)
        case .flash(let exposure):
            return lit ? .lit(exposure) : .wait
        }
    }

    /// Whether a frame was made with the held exposure (within 1%: devices round durations) and
    /// lens position.
    private static func isMade(_ metadata: FrameMetadata, with held: SensorControls) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) < 0.01 }
        return close(metadata.exposureDuration.seconds, held.exposureDuration) && close(metadata.analogueGain, held.analogueGain)
            && close(metadata.digitalGain, held.digitalGain) && abs(metadata.lensPosition - held.lensPosition) < 1e-6
    }
}
