@testable import CameraExposure
import Testing

/// The backlit subject's level over frames: noise flips ignored, a confirmed jump taken, small
/// changes smoothed.
@Suite("Subject level filter")
struct SubjectLevelFilterTests {
    /// A filter that has taken in a subject at 5 EV.
    private func settled() -> SubjectLevelFilter {
        var filter = SubjectLevelFilter()
        _ = filter.update(5)
        return filter
    }

    @Test("A jump of 2 EV is taken whole once the next frame confirms it")
    func confirmedJumpIsTaken() {
        var filter = settled()
        #expect(filter.update(7) == 5)
        #expect(filter.update(7) == 7)
    }

    @Test("A jump seen on one frame only is a flip of the region, not followed")
    func oneFrameFlipIsIgnored() {
        var filter = settled()
        #expect(filter.update(7) == 5)
        #expect(filter.update(5) == 5)
    }

    @Test("A change within 1.5 EV is taken in 8% a frame")
    func smallChangesAreSmoothed() {
        var filter = settled()
        #expect(abs(filter.update(6) - 5.08) < 1e-12)
        #expect(abs(filter.update(6) - 5.1536) < 1e-12)
    }
}
