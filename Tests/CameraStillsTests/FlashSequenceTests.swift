import CameraCapture
import CameraCore
import CameraMetering
@testable import CameraStills
import Testing

/// The flash sequence driven frame by frame, with frames the device loses between them: the
/// timing a starved buffer pool or a stream restart gives.
@Suite("Flash sequence with lost frames")
struct FlashSequenceTests {
    /// The exposure the sequence holds: the frames of `FlashExposureTests.frame` are made with it.
    static let held = SensorControls(exposureDuration: 1.0 / 30, analogueGain: 8)

    static func ambient() throws -> (statistics: FrameStatistics, metadata: FrameMetadata) {
        try FlashExposureTests.frame(subject: 0.02, background: 0.03)
    }

    static func lit(_ power: Double) throws -> (statistics: FrameStatistics, metadata: FrameMetadata) {
        try FlashExposureTests.frame(subject: 0.02 + 0.4 * power, background: 0.03 + 0.1 * power, flash: power)
    }

    static func advance(_ sequence: inout FlashSequence, _ frame: (statistics: FrameStatistics, metadata: FrameMetadata)) -> FlashSequence.Step {
        sequence.advance(frame.statistics, metadata: frame.metadata, held: held, target: Meter.midGray)
    }

    /// The power a step fires at, nil for any other step.
    static func firedPower(_ step: FlashSequence.Step) -> Double? {
        if case .fire(let power) = step { return power }
        return nil
    }

    @Test("The main flash's frame is dropped: the flash fires again on the next frame, whose light is the photo")
    func mainFlashFrameDropped() throws {
        var sequence = FlashSequence()
        #expect(Self.firedPower(Self.advance(&sequence, try Self.ambient())) == FlashExposure.preFlashPower)
        let power = try #require(Self.firedPower(Self.advance(&sequence, try Self.lit(FlashExposure.preFlashPower))))
        guard case .wait = sequence.frameLost() else { Issue.record("a lost frame ends nothing"); return }
        #expect(Self.firedPower(Self.advance(&sequence, try Self.ambient())) == power, "the lost frame may have carried the flash")
        guard case .lit(let exposure) = Self.advance(&sequence, try Self.lit(power)) else {
            Issue.record("the frame lit by the second firing is the photo")
            return
        }
        #expect(exposure.power == power)
    }

    @Test("The pre-flash's frame is lost in a stream restart: the pre-flash fires again before the main flash is measured")
    func preFlashLostInRestart() throws {
        var sequence = FlashSequence()
        #expect(Self.firedPower(Self.advance(&sequence, try Self.ambient())) == FlashExposure.preFlashPower)
        _ = sequence.frameLost()
        #expect(Self.firedPower(Self.advance(&sequence, try Self.ambient())) == FlashExposure.preFlashPower)
        #expect(Self.firedPower(Self.advance(&sequence, try Self.lit(FlashExposure.preFlashPower))) != nil)
    }

    @Test("A frame lit at another power (a flash fired again whose first frame came late) is neither the pre-flash nor the photo")
    func strayLitFrame() throws {
        var sequence = FlashSequence()
        _ = Self.advance(&sequence, try Self.ambient())
        guard case .wait = Self.advance(&sequence, try Self.lit(0.5)) else { Issue.record("a frame lit at 0.5 is not the pre-flash"); return }
        let power = try #require(Self.firedPower(Self.advance(&sequence, try Self.lit(FlashExposure.preFlashPower))))
        guard case .wait = Self.advance(&sequence, try Self.lit(FlashExposure.preFlashPower)) else {
            Issue.record("a second pre-flash frame is not the photo lit at \(power)")
            return
        }
        guard case .lit = Self.advance(&sequence, try Self.lit(power)) else { Issue.record("the main flash's frame is the photo"); return }
    }

    @Test("Every frame after the pre-flash is dropped (all the camera's buffers held): the sequence fails at its frame limit, saying so")
    func everyFrameDropped() throws {
        var sequence = FlashSequence()
        _ = Self.advance(&sequence, try Self.ambient())
        var step = FlashSequence.Step.wait
        var lost = 0
        while case .wait = step, lost < 100 {
            step = sequence.frameLost()
            lost += 1
        }
        guard case .failed(let message) = step else { Issue.record("no failure after \(lost) lost frames"); return }
        #expect(lost == FlashSequence.frameLimit, "the ambient frame and 11 lost ones are the 12 the sequence may take")
        #expect(message == "no frame came lit by the pre-flash in the 12 frames after the request "
            + "(the camera lost 11 of them — dropped for want of a free buffer, skipped, or in a stream restart)")
    }
}
