import CameraCore
import CameraMetering
@testable import CameraStills
import Foundation
import Testing

/// The flash exposure from a pre-flash, on frames whose levels are known: a subject in the middle
/// zones that the flash lights well, before a background it lights less.
@Suite("Flash exposure from a pre-flash")
struct FlashExposureTests {
    /// 64x48, so that each of the 16×12 metering zones is 4×4 pixels; the subject fills zones
    /// 4..<12 across and 3..<9 down.
    static let size = PixelSize(width: 64, height: 48)

    /// The 8-bit code of a linear level, and the linear level that code decodes to.
    static func code(_ linear: Double) -> UInt8 { UInt8((SRGB.encode(linear) * 255).rounded()) }
    static func decoded(_ linear: Double) -> Double { Double(SRGB.linearOf8Bit[Int(code(linear))]) }

    /// A frame's statistics and metadata: `subject` and `background` linear levels, made at
    /// `seconds` and `gain`, lit by a flash of `flash` power (nil: unlit); `lamps` are a bright
    /// patch's levels in the top-left and top-right corners (2×2 zones each), or the background's.
    static func frame(subject: Double, background: Double, lamps: (left: Double, right: Double)? = nil, seconds: Double = 1.0 / 30,
                      gain: Double = 8, flash: Double? = nil) throws -> (statistics: FrameStatistics, metadata: FrameMetadata) {
        let buffer = try PixelBuffer(format: .gray8, width: size.width, height: size.height)
        let bytesPerRow = buffer.planes[0].bytesPerRow
        buffer.withUnsafeMutableBytes(plane: 0) { bytes in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let inSubject = (16..<48).contains(x) && (12..<36).contains(y)
                    let lamp = y < 8 ? (x < 8 ? lamps?.left : x >= 56 ? lamps?.right : nil) : nil
                    bytes[y * bytesPerRow + x] = code(inSubject ? subject : lamp ?? background)
                }
            }
        }
        let metadata = FrameMetadata(exposureDuration: MediaTime(seconds: seconds, preferredTimescale: 1_000_000),
                                     analogueGain: gain, baseISO: 50, flashPower: flash)
        return (try FrameAnalyzer().analyze(buffer), metadata)
    }

    static let preFlash = FlashExposure.preFlashPower

    @Test("The power is the pre-flash's scaled to what the subject still lacks: p = p₀ · (target − ambient) / (pre-flash − ambient)",
          arguments: [0.0, 1.0])
    func powerFromTheSubjectsReturn(bias: Double) throws {
        let target = Meter.midGray * pow(2, bias)
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.02, background: 0.03),
                                     preFlash: try Self.frame(subject: 0.045, background: 0.035, flash: Self.preFlash), target: target)
        let (ambient, lit) = (Self.decoded(0.02), Self.decoded(0.045))
        let expected = Self.preFlash * (target - ambient) / (lit - ambient)
        #expect(abs(exposure.power / expected - 1) < 1e-4, "\(exposure.power) against \(expected)")
        #expect(abs(exposure.ambientError - log2(ambient / target)) < 1e-4)
        #expect(abs(exposure.expectedError) < 1e-9 && !exposure.isOutOfReach)
    }

    @Test("A pulse: an ambient frame exposed twice as long counts its light twice, the flash's once")
    func ambientScalesWithTimeFlashDoesNot() throws {
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.04, background: 0.06, seconds: 1.0 / 15),
                                     preFlash: try Self.frame(subject: 0.045, background: 0.035, flash: Self.preFlash), target: 0.18)
        let ambient = Self.decoded(0.04) / 2
        let expected = Self.preFlash * (0.18 - ambient) / (Self.decoded(0.045) - ambient)
        #expect(abs(exposure.power / expected - 1) < 1e-4, "\(exposure.power) against \(expected)")
    }

    @Test("A subject the pre-flash hardly lights gets full power and is reported out of reach, under the target")
    func outOfReach() throws {
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.02, background: 0.02),
                                     preFlash: try Self.frame(subject: 0.024, background: 0.021, flash: Self.preFlash), target: 0.18)
        let (ambient, lit) = (Self.decoded(0.02), Self.decoded(0.024))
        #expect(exposure.power == 1 && exposure.isOutOfReach)
        #expect(abs(exposure.expectedError - log2((ambient + (lit - ambient) / Self.preFlash) / 0.18)) < 1e-4)
        #expect(exposure.expectedError < -1)
    }

    @Test("Full power leaving the subject less than the tolerance under its target is not out of reach")
    func justShortOfTheTarget() throws {
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.02, background: 0.02),
                                     preFlash: try Self.frame(subject: 0.029, background: 0.021, flash: Self.preFlash), target: 0.18)
        #expect(exposure.power == 1 && !exposure.isOutOfReach)
        #expect(exposure.expectedError < 0 && exposure.expectedError > -FlashExposure.reachTolerance, "\(exposure.expectedError) EV")
    }

    /// Lamps' zones vary from frame to frame by a few percent of their level — more, in absolute
    /// terms, than the flash returns from a subject a few metres away: one lamp brighter in the
    /// pre-flash frame, the other darker.
    @Test("A lamp's noise is not the flash's return: the subject is the zones whose return stands above the noise")
    func lampNoiseIsNotTheSubject() throws {
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.02, background: 0.02, lamps: (0.5, 0.5)),
                                     preFlash: try Self.frame(subject: 0.025, background: 0.02, lamps: (0.53, 0.47), flash: Self.preFlash),
                                     target: 0.05)
        let (ambient, lit) = (Self.decoded(0.02), Self.decoded(0.025))
        let expected = Self.preFlash * (0.05 - ambient) / (lit - ambient)
        #expect(abs(exposure.power / expected - 1) < 1e-4, "\(exposure.power) against \(expected): the lamp was taken for the subject")
        #expect(abs(exposure.expectedError) < 1e-9 && !exposure.isOutOfReach)
    }

    @Test("A frame the pre-flash does not light at all (sky, far away): full power, out of reach, the ambient still metered")
    func nothingReturns() throws {
        let frame = try Self.frame(subject: 0.02, background: 0.02)
        let exposure = FlashExposure(ambient: frame, preFlash: try Self.frame(subject: 0.02, background: 0.02, flash: Self.preFlash),
                                     target: 0.18)
        #expect(exposure.power == 1 && exposure.isOutOfReach)
        #expect(abs(exposure.ambientError - log2(Self.decoded(0.02) / 0.18)) < 1e-4)
        #expect(abs(exposure.expectedError - exposure.ambientError) < 1e-4)
    }

    @Test("A subject already at the target gets the least power a flash gives")
    func brightSubject() throws {
        let exposure = FlashExposure(ambient: try Self.frame(subject: 0.2, background: 0.1),
                                     preFlash: try Self.frame(subject: 0.25, background: 0.11, flash: Self.preFlash), target: 0.18)
        #expect(exposure.power == FlashExposure.minimumPower && !exposure.isOutOfReach)
        #expect(exposure.ambientError > 0 && exposure.expectedError > exposure.ambientError)
    }
}
