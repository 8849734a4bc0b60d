@testable import CameraRecording
import Testing

/// The live stream's bitrate: what the socket took over the last second, read at any moment.
@Suite struct LiveStreamRateTests {
    let start = ContinuousClock.now

    /// A rate fed 10 kB every 100 ms for 2 s: 800 kb/s.
    func steady() -> LiveStreamRate {
        var rate = LiveStreamRate()
        for step in 0...20 { rate.record(bytes: Int64(step) * 10_000, at: start + .milliseconds(100 * step)) }
        return rate
    }

    @Test("a steady stream reads its bits a second over the last second")
    func steadyRate() {
        #expect(steady().bitsPerSecond(at: start + .seconds(2)) == 800_000)
    }

    @Test("when the socket takes nothing more, the figure falls with the time gone, to 0 after a second")
    func fallsInAStall() {
        let rate = steady()
        #expect(rate.bitsPerSecond(at: start + .milliseconds(2_500)) == 400_000)
        #expect(rate.bitsPerSecond(at: start + .milliseconds(3_100)) == 0)
        #expect(rate.bitsPerSecond(at: start + .seconds(30)) == 0)
    }

    @Test("no connection, or one too young to measure, reads 0")
    func emptyAndYoung() {
        var rate = LiveStreamRate()
        #expect(rate.bitsPerSecond(at: start) == 0)
        rate.record(bytes: 13, at: start)
        rate.record(bytes: 5_013, at: start + .milliseconds(100))
        #expect(rate.bitsPerSecond(at: start + .milliseconds(200)) == 0)
        #expect(rate.bitsPerSecond(at: start + .milliseconds(500)) == 80_000)
        rate.reset()
        #expect(rate.bitsPerSecond(at: start + .milliseconds(500)) == 0)
    }
}
