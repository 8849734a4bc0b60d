@testable import CameraExposure
import Testing

/// The settled aim: a jump where the light has not changed is spread over frames; new light and a
/// loop still searching are followed at once.
@Suite("Aim limiter")
struct AimLimiterTests {
    /// A limiter that aimed at −8 EV on a frame whose own level is −2.
    private func aiming() -> AimLimiter {
        var limiter = AimLimiter()
        _ = limiter.limit(-8, frame: -2, settled: true)
        return limiter
    }

    @Test("A settled aim wanting 1 EV more in a steady frame gets there a quarter stop a frame")
    func jumpInASteadyFrame() {
        var limiter = aiming()
        let aims = (0..<6).map { _ in limiter.limit(-7, frame: -2, settled: true) }
        #expect(aims == [-7.75, -7.5, -7.25, -7, -7, -7])
    }

    @Test("Down as up: 0.6 EV less in two quarter stops and the rest")
    func downward() {
        var limiter = aiming()
        let aims = (0..<3).map { _ in limiter.limit(-8.6, frame: -2, settled: true) }
        #expect(aims == [-8.25, -8.5, -8.6])
    }

    @Test("New light moves the frame's own level with the aim: followed at once")
    func newLightIsFollowed() {
        var limiter = aiming()
        #expect(limiter.limit(-10, frame: 0, settled: true) == -10)
    }

    @Test("Light changing partway through is followed from there")
    func newLightDuringARamp() {
        var limiter = aiming()
        #expect(limiter.limit(-7, frame: -2, settled: true) == -7.75)
        #expect(limiter.limit(-5, frame: -5, settled: true) == -5)
    }

    @Test("While the loop is still searching, the aim is taken whole")
    func unsettledTakesItWhole() {
        var limiter = aiming()
        #expect(limiter.limit(-5, frame: -2, settled: false) == -5)
    }
}
