@testable import CameraCore
import Testing

@Suite("Frame rate meter")
struct FrameRateMeterTests {
    @Test("The first frames' burst reads as no rate yet, not as a high one; after a second, the last second's rate")
    func burstAtStartIsNotARate() {
        var meter = FrameRateMeter()
        let start = ContinuousClock.now
        // Four frames the camera had ready arrive within 3 ms, then one every 1/30 s.
        var readings = (0..<4).map { meter.tick(at: start + .milliseconds($0)) }
        for frame in 1...60 { readings.append(meter.tick(at: start + .milliseconds(3) + .seconds(Double(frame) / 30))) }
        #expect(readings.prefix(32).allSatisfy { $0 == 0 }, "\(readings.prefix(32))")
        #expect(abs(readings.last! - 30) < 0.01, "\(readings.last!)")
        #expect(readings.dropFirst(34).allSatisfy { abs($0 - 30) < 1.5 }, "\(readings)")
    }
}
