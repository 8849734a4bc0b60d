@testable import CameraExposure
import Testing

/// The backlit subject's level over frames: noise flips ignored, new light taken whole, a subject
/// that moved within the view followed gently.
@Suite("Subject level filter")
struct SubjectLevelFilterTests {
    /// A filter that has taken in a subject at 5 EV in a frame whose own level is 3 EV.
    private func settled() -> SubjectLevelFilter {
        var filter = SubjectLevelFilter()
        _ = filter.update(5, frame: 3)
        return filter
    }

    @Test("A subject 2 EV brighter within a steady frame is followed a quarter stop a frame, once confirmed")
    func subjectMovedWithinASteadyFrame() {
        var filter = settled()
        let levels = (0..<10).map { _ in filter.update(7, frame: 3) }
        #expect(levels == [5, 5.25, 5.5, 5.75, 6, 6.25, 6.5, 6.75, 7, 7])
    }

    @Test("New light moves the frame with the subject: taken whole once the next frame confirms it")
    func newLightIsTakenWhole() {
        var filter = settled()
        #expect(filter.update(9, frame: 7) == 5)
        #expect(filter.update(9, frame: 7) == 9)
    }

    @Test("A jump seen on one frame only is a flip of the region, not followed")
    func oneFrameFlipIsIgnored() {
        var filter = settled()
        #expect(filter.update(7, frame: 3) == 5)
        #expect(filter.update(5, frame: 3) == 5)
    }
}
