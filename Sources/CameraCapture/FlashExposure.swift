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
/// lights best — the zones returning at least half as much as the brightest one (for like
/// surfaces, those within about √2 of the nearest distance; sky and light sources return nothing)
/// — or every zone when none returns anything, weighted towards the centre (centre-weighted
/// metering's weight plus one, so that a subject in a corner still counts). The main flash's
/// power is the one that puts the subject's level at the target, clamped to `minimumPower`…1.
public struct FlashExposure: Sendable, Hashable {
    /// The pre-flash's power: low enough that a subject a metre away does not clip at the ISO a
    /// flash photo is held to, high enough to stand above the noise a few metres away.
    public static let preFlashPower = 1.0 / 16
    /// The least power a flash that fires gives (a flash quenches no shorter); `on` in bright
    /// light fires at it, adding a few percent at most.
    public static let minimumPower = 1.0 / 64
    /// The part of the brightest return a zone must reach to count as the subject.
    static let subjectReturnFraction = 0.5

    /// The linear level the subject is aimed at: mid-grey shifted by the exposure bias.
    public let target: Double
    /// The main flash's power, `minimumPower`…1.
    public let power: Double
    /// Where the subject stood without flash, in EV from the target.
    public let ambientError: Double
    /// Where the subject is expected with the flash at `power`, in EV from the target: 0 unless
    /// the power was clamped.
    public let expectedError: Double
    /// The subject needs more than full power — too far away or too dark for the flash — so it
    /// gets full power and lands `expectedError` below the target.
    public let isOutOfRange: Bool

    /// The flash exposure for a subject that the pre-flash frame (lit at its metadata's
    /// `flashPower`) and the ambient frame before it show, aiming at `target`. The main flash's
    /// frame is taken to have the pre-flash frame's exposure (the exposure is held meanwhile).
    init(ambient: (statistics: FrameStatistics, metadata: FrameMetadata),
         preFlash: (statistics: FrameStatistics, metadata: FrameMetadata), target: Double) {
        let exposure = preFlash.metadata.totalExposure
        let gain = preFlash.metadata.analogueGain * preFlash.metadata.digitalGain
        let zones = FlashExposure.zones(ambient: ambient, preFlash: preFlash)
        let brightest = zones.map(\.flash).max() ?? 0
        let subject = brightest > 0 ? zones.filter { $0.flash >= FlashExposure.subjectReturnFraction * brightest } : zones
        let weight = subject.reduce(0) { $0 + $1.weight }
        // Per unit of total exposure (ambient) and per unit of gain and power (flash).
        let ambientLevel = weight > 0 ? subject.reduce(0) { $0 + $1.weight * $1.ambient } / weight : 0
        let flashLevel = weight > 0 ? subject.reduce(0) { $0 + $1.weight * $1.flash } / weight : 0
        let ambientPart = ambientLevel * exposure
        let needed = flashLevel > 0 ? (target - ambientPart) / (flashLevel * gain) : (ambientPart < target ? .infinity : 0)
        power = min(max(needed, FlashExposure.minimumPower), 1)
        self.target = target
        isOutOfRange = needed > 1
        ambientError = log2(max(ambientPart, 1e-6) / target)
        expectedError = log2(max(ambientPart + flashLevel * gain * power, 1e-6) / target)
    }

    /// A zone's ambient level per unit of total exposure, the flash's return per unit of gain and
    /// power, and its weight (centre weight + 1).
    private struct Zone {
        let ambient: Double
        let flash: Double
        let weight: Double
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
            return Zone(ambient: perExposure, flash: (f - perExposure * litExposure) / litGain,
                        weight: MeteringMode.centerWeight(x: x, y: y) + 1)
        }
    }
}
