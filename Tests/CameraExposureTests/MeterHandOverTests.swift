@testable import CameraExposure
import Testing

/// Switching between the backlit subject's meter and the centre median: a change of meter within
/// a settled, steady frame is followed gently; new light and an unsettled loop take it whole.
@Suite("Meter hand-over")
struct MeterHandOverTests {
    /// A hand-over that has given out the centre median's level 0 on a frame whose own level is −2.
    private func metering() -> MeterHandOver {
        var handOver = MeterHandOver()
        _ = handOver.update(0, backlit: false, frame: -2, settled: true)
        return handOver
    }

    @Test("The backlit subject reading 1 EV under the median in a steady frame is reached a quarter stop a frame")
    func switchWithinASteadyFrame() {
        var handOver = metering()
        let levels = (0..<6).map { _ in handOver.update(-1, backlit: true, frame: -2, settled: true) }
        #expect(levels == [-0.25, -0.5, -0.75, -1, -1, -1])
    }

    @Test("Once the hand-over is done, the new meter's readings are taken whole")
    func afterTheHandOver() {
        var handOver = metering()
        for _ in 0..<4 { _ = handOver.update(-1, backlit: true, frame: -2, settled: true) }
        #expect(handOver.update(-0.4, backlit: true, frame: -2, settled: true) == -0.4)
    }

    @Test("New light moves the frame's own level with the reading: taken whole")
    func newLightIsTakenWhole() {
        var handOver = metering()
        #expect(handOver.update(3, backlit: true, frame: 1, settled: true) == 3)
    }

    @Test("Light changing during a hand-over ends it")
    func newLightEndsTheHandOver() {
        var handOver = metering()
        #expect(handOver.update(-1, backlit: true, frame: -2, settled: true) == -0.25)
        #expect(handOver.update(2, backlit: true, frame: 0, settled: true) == 2)
    }

    @Test("While the loop is still searching, a switch is taken whole")
    func unsettledTakesItWhole() {
        var handOver = metering()
        #expect(handOver.update(-1, backlit: true, frame: -2, settled: false) == -1)
    }

    @Test("Without a switch of meter the reading passes through: the subject's own filter smooths it")
    func sameMeterPassesThrough() {
        var handOver = metering()
        #expect(handOver.update(1, backlit: false, frame: -2, settled: true) == 1)
    }
}
