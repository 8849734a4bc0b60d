import CameraCapture
import CameraCore
import Testing
@testable import CameraSimulated

/// Sync marks: the frame holding each whole second of stream time lit a stop brighter, the
/// picture's half of the simulated microphone's click.
@Suite struct SyncMarkTests {
    /// The mean raw signal of each of the first `count` frames of gray-card at 30 fps.
    func frameMeans(syncMarks: Bool, count: Int) async throws -> [(time: Double, mean: Double)] {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24, .bayer16(.rggb, significantBits: 12)),
                                         syncMarks: syncMarks)
        try camera.updateControls { $0.exposureDuration = 1.0 / 4000 }
        try camera.startStreaming()
        var means: [(Double, Double)] = []
        for _ in 0..<count {
            let frame = try await camera.nextFrame()
            means.append((frame.presentationTime.seconds, mean(rawValues(frame))))
        }
        return means
    }

    @Test("At 30 fps the frames starting at 1 s and 2 s, and only they, are a stop brighter")
    func marksEveryWholeSecond() async throws {
        let frames = try await frameMeans(syncMarks: true, count: 75)
        // Exposure and gain land two frames late: judge from frame 5 on.
        let settled = frames.dropFirst(5)
        let plain = mean(settled.filter { ![30, 60].contains(Int(($0.time * 30).rounded())) }.map(\.mean))
        for frame in settled {
            let index = Int((frame.time * 30).rounded())
            let ratio = frame.mean / plain
            if index == 30 || index == 60 {
                #expect(abs(frame.time - Double(index / 30)) < 1e-9, "the marked frame starts on the second")
                #expect(abs(ratio - Double(SimulatedCamera.syncMarkGain)) < 0.05, "frame \(index): \(ratio)× the others")
            } else {
                #expect(abs(ratio - 1) < 0.05, "frame \(index): \(ratio)× the others")
            }
        }
    }

    @Test("Without sync marks no frame stands out")
    func noMarksByDefault() async throws {
        let frames = try await frameMeans(syncMarks: false, count: 35).dropFirst(5)
        let plain = mean(frames.map(\.mean))
        #expect(frames.allSatisfy { abs($0.mean / plain - 1) < 0.05 })
    }

    @Test("Each whole second is held by exactly one frame, whatever the frame rate", arguments: [30.0, 24, 25, 2.5])
    func oneFramePerSecond(rate: Double) {
        let starts = (0..<Int(10 * rate)).map { Double($0) / rate }
        let seconds = starts.filter { SimulatedCamera.holdsWholeSecond($0, duration: 1 / rate) }.map { Int($0.rounded(.up)) }
        #expect(seconds == Array(1...9))
    }
}
