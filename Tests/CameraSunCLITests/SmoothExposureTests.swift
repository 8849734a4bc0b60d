import CameraTestSupport
import Foundation
import Testing

/// The exposure a movie sees, through the real session: settled, it never steps by more than a
/// quarter stop between frames where the scene does not jump.
@Suite("Smooth exposure through the session")
struct SmoothExposureTests {
    @Test("meter on the pan into the sun: after the first second, no frame's output exposure is ¼ EV from the frame before")
    func panIntoTheSun() async throws {
        let result = try await CameraSunBinary.run(["meter", "--source", "sim:pan-into-sun", "--no-realtime", "--json",
                                                    "--width", "320", "--height", "180", "--frames", "200"])
        #expect(result.exitCode == 0, "\(result)")
        let frames = try result.stdoutLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        try #require(frames.count == 200, "\(result)")
        // The sensor's EV at base sensitivity (ISO 50) and the EV the picture's subject is lifted by.
        let sensor = frames.map { log2(($0["exposureTime"] as? Double ?? 0) * ($0["iso"] as? Double ?? 0) / 50) }
        let render = frames.map { $0["renderGainEV"] as? Double ?? .nan }
        for index in 31..<frames.count {
            let step = sensor[index] - sensor[index - 1], output = step + render[index] - render[index - 1]
            #expect(abs(output) <= 0.25 + 1e-6, "frame \(index): output \(output) EV")
            // Near the 2% highlight budget the sensor saws up a quarter stop every 16 frames or so
            // and once or twice by up to 0.32 EV, the render gain taking it back (the output moves
            // under 0.02 EV there): the clipping limit's cycle, left for the exposure work of issue 35.
            withKnownIssue("the sensor's clipping-limit sawtooth on the pan", isIntermittent: true) {
                #expect(abs(step) <= 0.25 + 1e-6, "frame \(index): sensor \(step) EV")
            }
        }
    }
}
