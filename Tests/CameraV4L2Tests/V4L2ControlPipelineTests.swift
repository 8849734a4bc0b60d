@testable import CameraV4L2
import Testing

@Suite("V4L2ControlPipeline")
struct V4L2ControlPipelineTests {
    @Test("a value set after frame n stamps frame n + 2 on a two-frame latency, and values set frame after frame land in turn")
    func landsLate() {
        var pipeline = V4L2ControlPipeline(latencyFrames: 2, values: [.exposureTimeAbsolute: 250, .gain: 0])
        #expect(pipeline.values(forFrame: 4)[.exposureTimeAbsolute] == 250)
        pipeline.set(.exposureTimeAbsolute, to: 100, nextFrame: 5)
        #expect(pipeline.requested[.exposureTimeAbsolute] == 100)
        #expect(pipeline.values(forFrame: 5)[.exposureTimeAbsolute] == 250)
        pipeline.set(.exposureTimeAbsolute, to: 120, nextFrame: 6)
        pipeline.set(.gain, to: 10, nextFrame: 6)
        #expect(pipeline.values(forFrame: 6) == [.exposureTimeAbsolute: 100, .gain: 0])
        #expect(pipeline.values(forFrame: 7) == [.exposureTimeAbsolute: 120, .gain: 10])
    }

    @Test("on a one-frame latency the next frame has the value; a frame skipped over still gets every value due by it")
    func nextFrame() {
        var pipeline = V4L2ControlPipeline(latencyFrames: 1, values: [.exposureTimeAbsolute: 250])
        pipeline.set(.exposureTimeAbsolute, to: 100, nextFrame: 0)
        #expect(pipeline.values(forFrame: 0)[.exposureTimeAbsolute] == 100)
        pipeline.set(.exposureTimeAbsolute, to: 80, nextFrame: 1)
        pipeline.set(.exposureTimeAbsolute, to: 60, nextFrame: 2)
        #expect(pipeline.values(forFrame: 5)[.exposureTimeAbsolute] == 60)
    }
}
