import CameraCore
import CameraMetering
import Foundation

/// How much flash a photo needs, measured as a camera measures it: a pre-flash of known power on
/// one frame, compared with the ambient frame before it at the same exposure.
///
/// Zone by zone (the 16×12 metering zones: coarse enough that their means stand well above the
/// noise of a dim frame), the difference is the light the flash returns. A flash is a pulse, so
/// its light grows with the gain but not with the exposure time, while the ambient light grows
/// with both: each frame's metadata puts both on that footing. The subject is what the flash
/// reaches best: of the zones whose return stands above the noise (`noiseMargin` times the spread
/// of the negative returns, which only noise makes, each as a part of its zone's ambient level:
/// a lamp's zone varies more in absolute terms than a dark one), those returning at least half as
/// much as the brightest (for like surfaces, those within about √2 of the nearest distance; sky
/// and light sources return nothing) — or every zone when none stands out, weighted towards the
/// centre (centre-weighted metering's weight plus one, so that a subject in a corner still
/// counts). The main flash's power is the one that puts the subject's level at the target,
/// clamped to `minimumPower`…1; a subject that full power leaves more than `reachTolerance` under
/// its target is out of the flash's reach.
public struct FlashExposure: Sendable, Hashable {
    /// The pre-flash's power: low enough that a subject a metre away does not clip at the ISO a
    /// flash photo is held to, high enough to stand above the noise a few metres away.
    public static let preFlashPower = 1.0 / 16
    /// The least power a flash that fires gives (a flash quenches no shorter); `on` in bright
    /// light fires at it, adding a few percent at most.
    public static let minimumPower = 1.0 / 64
    /// The part of the brightest return a zone must reach to count as the subject.
    static let subjectReturnFraction = 0.5
    /// How many times the noise's spread a zone's return must exceed to count as the flash's.
    static let noiseMargin = 3.0
    /// The least ambient level (of full scale) a zone's return is compared with: a black zone's
    /// noise is not a fraction of nothing.
    static let noiseFloorLevel = 1.0 / 1024
    /// EV under its target at full power beyond which the subject is out of the flash's reach.
    public static let reachTolerance = 1.0 / 3

    /// The linear level the subject is aimed at in the flash's frame: the level the picture's
    /// render gain lifts to its subject's target (`ThreeAEngine.flashTarget`).
    public let target: Double
    /// The main flash's power, `minimumPower`…1.
    public let power: Double
    /// Where the subject stood without flash, in EV from the target.
    public let ambientError: Double
    /// Where the subject is expected with the flash at `power`, in EV from the target: 0 unless
    /// the power was clamped — under it at full power, over it at the least power (a near subject;
    /// the picture is then rendered that much darker, `ThreeAEngine.dimHeldPicture`).
    public let expectedError: Double
    /// Even full power leaves the subject more than `reachTolerance` under its target — too far
    /// away or too dark for the flash: it fires at full power and the subject lands
    /// `expectedError` under the target.
    public let isOutOfReach: Bool

    /// The flash exposure for a subject that the pre-flash frame (lit at its metadata's
    /// `flashPower`) and the ambient frame before it show, aiming at `target`. The main flash's
    /// frame is taken to have the pre-flash frame's exposure (the exposure is held meanwhile).
    init(ambient: (statistics: FrameStatistics, metadata: FrameMetadata),
         preFlash: (statistics: FrameStatistics, metadata: FrameMetadata), target: Double) {
        let exposure = preFlash.metadata.totalExposure
        let gain = preFlash.metadata.analogueGain * preFlash.metadata.digitalGain
        let zones = FlashExposure.zones(ambient: ambient, preFlash: preFlash)
        let reached = FlashExposure.aboveNoise(zones)
        let brightest = reached.map(\.flash).max() ?? 0
        let subject = reached.isEmpty ? zones : reached.filter { $0.flash >= FlashExposure.subjectReturnFraction * brightest }
        let weight = subject.reduce(0) { $0 + $1.weight }
        // Per unit of total exposure (ambient) and per unit of gain and power (flash).
        let ambientLevel = weight > 0 ? subject.reduce(0) { $0 + $1.weight * $1.ambient } / weight : 0
        let flashLevel = weight > 0 ? subject.reduce(0) { $0 + $1.weight * $1.flash } / weight : 0
        let ambientPart = ambientLevel * exposure
        let needed = flashLevel > 0 ? (target - ambientPart) / (flashLevel * gain) : (ambientPart < target ? .infinity : 0)
        power = min(max(needed, FlashExposure.minimumPower), 1)
        self.target = target
        ambientError = log2(max(ambientPart, 1e-6) / target)
        expectedError = log2(max(ambientPart + flashLevel * gain * power, 1e-6) / target)
        isOutOfReach = needed > 1 && expectedError < -FlashExposure.reachTolerance
    }

    /// A zone's ambient level per unit of total exposure, the flash's return per unit of gain and
    /// power, its return as a part of its ambient level in the pre-flash frame (the noise's
    /// measure), and its weight (centre weight + 1).
    private struct Zone {
        let ambient: Double
        let flash: Double
        let relativeReturn: Double
        let weight: Double
    }

    /// The zones whose return stands above the noise: more than `noiseMargin` times the RMS of
    /// the negative relative returns (none when nothing returns).
    private static func aboveNoise(_ zones: [Zone]) -> [Zone] {
        let negative = zones.map(\.relativeReturn).filter { $0 < 0 }
        let spread = negative.isEmpty ? 0 : (negative.reduce(0) { $0 + $1 * $1 } / Double(negative.count)).squareRoot()
        return zones.filter { $0.flash > 0 && $0.relativeReturn > noiseMargin * spread }
    }

    /// The zones both frames sampled.
    private static func zones(ambient: (statistics: FrameStatistics, metadata: FrameMetadata),
                              preFlash: (statistics: FrameStatistics, metadata: FrameMetadata)) -> [Zone] {
        let (before, lit) = (ambient.statistics.zones, preFlash.statistics.zones)
        guard before.columns == lit.columns, before.rows == lit.rows, let power = preFlash.metadata.flashPower, power > 0 else { return [] }
        let litExposure = preFlash.metadata.totalExposure
        let litGain = preFlash.metadata.analogueGain * preFlash.metadata.digitalGain * power
        return (0..<(lit.columns * lit.rows)).compactMap { index in
            guard let a = before.means[index], let f = lit.means[index] else { return nil }
            let perExposure = a / ambient.metadata.totalExposure
            let x = (Double(index % lit.columns) + 0.5) / Double(lit.columns), y = (Double(index / lit.columns) + 0.5) / Double(lit.rows)
            let returned = f - perExposure * litExposure
            return Zone(ambient: perExposure, flash: returned / litGain,
                        relativeReturn: returned / max(perExposure * litExposure, noiseFloorLevel),
                        weight: MeteringMode.centerWeight(x: x, y: y) + 1)
        }
    }
}
