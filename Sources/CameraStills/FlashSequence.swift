import CameraCapture
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
/// The lit frames are found from their metadata's `flashPower` — the power this sequence fired
/// at, so a stray lit frame is never taken for one — never by counting frames, so a device that
/// fires a frame later works as well. The last unlit frame before the pre-flash is the ambient
/// frame it is compared with. A frame the device loses while a flash waits for its frame (dropped
/// for want of a buffer, skipped, or gone with a stream restart) may have taken the flash with
/// it, so the flash fires again on the next frame; lost frames count towards `frameLimit`, so a
/// camera that delivers none still ends the sequence.
struct FlashSequence {
    /// What the loop does after a frame.
    enum Step {
        /// Nothing yet.
        case wait
        /// Fire the flash at this power on an upcoming frame.
        case fire(power: Double)
        /// This frame is the photo, lit as `FlashExposure` decided.
        case lit(FlashExposure)
        /// The sequence cannot finish; the message says what did not happen.
        case failed(String)
    }

    private enum Phase {
        case settling
        case preFlash(ambient: (statistics: FrameStatistics, metadata: FrameMetadata))
        case flash(FlashExposure)

        /// The power of the flash this phase waits for the frame of; nil while settling.
        var power: Double? {
            switch self {
            case .settling: nil
            case .preFlash: FlashExposure.preFlashPower
            case .flash(let exposure): exposure.power
            }
        }
    }

    /// Frames a sequence may take, lost ones included: time for the held exposure to reach the
    /// sensor (two frames on the simulated camera) and each flash to fire, with room to spare.
    static let frameLimit = 12
    /// Frames to wait for the held exposure and lens before metering anyway (the metering reads
    /// each frame's own exposure, so a device that never matches it exactly is still measured).
    static let settleLimit = 4

    private var phase = Phase.settling
    private var frames = 0
    private var lostFrames = 0
    /// A frame was lost since the flash last fired: it may have taken the flash with it.
    private var mayHaveLostTheFlash = false

    /// The main flash's exposure once the pre-flash has measured it.
    var mainFlash: FlashExposure? {
        if case .flash(let exposure) = phase { return exposure }
        return nil
    }

    /// Takes the next frame, made under `held` controls; `target` is the level the subject is
    /// aimed at in a frame of its exposure (`ThreeAEngine.flashTarget`).
    mutating func advance(_ statistics: FrameStatistics, metadata: FrameMetadata, held: SensorControls, target: Double) -> Step {
        if let failure = countFrame(lost: false) { return failure }
        let lit = metadata.flashPower != nil
        let litByThisFlash = phase.power.map { Self.isLit(metadata, at: $0) } ?? false
        switch phase {
        case .settling:
            guard !lit, metadata.isMade(with: held) || frames > Self.settleLimit else { return .wait }
            phase = .preFlash(ambient: (statistics, metadata))
            return fire()
        case .preFlash(let ambient):
            guard litByThisFlash else {
                if !lit { phase = .preFlash(ambient: (statistics, metadata)) }
                return refireIfLost()
            }
            let exposure = FlashExposure(ambient: ambient, preFlash: (statistics, metadata), target: target)
            phase = .flash(exposure)
            return fire()
        case .flash(let exposure):
            return litByThisFlash ? .lit(exposure) : refireIfLost()
        }
    }

    /// Takes a frame the device lost (dropped or skipped) or a stream restart (which drops a
    /// flash waiting for its frame).
    mutating func frameLost() -> Step {
        if phase.power != nil { mayHaveLostTheFlash = true }
        return countFrame(lost: true) ?? .wait
    }

    /// Counts a frame towards `frameLimit`, or fails when the sequence has already taken that many.
    private mutating func countFrame(lost: Bool) -> Step? {
        guard frames == Self.frameLimit else {
            frames += 1
            if lost { lostFrames += 1 }
            return nil
        }
        let lost = lostFrames == 0 ? ""
            : " (the camera lost \(lostFrames) of them — dropped for want of a free buffer, skipped, or in a stream restart)"
        let waitedFor = switch phase {
        case .settling: "no frame came at the exposure held for the flash"
        case .preFlash: "no frame came lit by the pre-flash"
        case .flash: "no frame came lit by the main flash"
        }
        return .failed("\(waitedFor) in the \(Self.frameLimit) frames after the request\(lost)")
    }

    /// Fires the flash the current phase waits for.
    private mutating func fire() -> Step {
        mayHaveLostTheFlash = false
        return phase.power.map { .fire(power: $0) } ?? .wait
    }

    /// Fires the flash again when a frame lost since it fired may have carried it.
    private mutating func refireIfLost() -> Step {
        mayHaveLostTheFlash ? fire() : .wait
    }

    /// Whether a frame was lit by a flash of `power` (within 1%: devices round it).
    private static func isLit(_ metadata: FrameMetadata, at power: Double) -> Bool {
        metadata.flashPower.map { abs($0 / power - 1) < 0.01 } ?? false
    }
}
