import CameraCapture
import CameraCore
import Testing
@testable import CameraSimulated

/// In realtime pacing the sensor reads the next frame out while the caller processes this one:
/// controls applied after frame n is delivered land on frame n + 2, the exposure as without
/// read-ahead, and a stop gives back the frame no one asked for yet.
@Suite struct ReadAheadTests {
    @Test("Controls applied after frame n is delivered land on frame n + 2: exposure, gain and the rest")
    func controlsLandTwoFramesLater() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24), pacing: .realtime)
        let first = try await camera.nextFrame()
        let gains = WhiteBalanceGains(red: 1.5, green: 1, blue: 2)
        try camera.apply(SensorControls(exposureDuration: 0.004, analogueGain: 2, digitalGain: 1.5, whiteBalance: gains,
                                        lensPosition: 0.4))
        let next = try await camera.nextFrame(), after = try await camera.nextFrame()
        #expect([next.sequenceNumber, after.sequenceNumber] == [first.sequenceNumber + 1, first.sequenceNumber + 2])
        #expect(next.metadata.analogueGain == 1)
        #expect(next.metadata.whiteBalanceGains == first.metadata.whiteBalanceGains)
        #expect(next.metadata.exposureDuration == first.metadata.exposureDuration)
        #expect(after.metadata.exposureDuration == MediaTime(value: 1, timescale: 250))
        #expect(after.metadata.analogueGain == 2)
        #expect(after.metadata.digitalGain == 1.5)
        #expect(after.metadata.whiteBalanceGains == gains)
        #expect(after.metadata.lensPosition == 0.4)
    }

    @Test("A stop gives back the frame read out ahead: the restarted stream delivers it next, made with the settled controls")
    func stopGivesBackTheFrameReadAhead() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24), pacing: .realtime)
        let first = try await camera.nextFrame()
        try camera.updateControls { $0.analogueGain = 5 }
        camera.stopStreaming()
        try camera.startStreaming()
        let resumed = try await camera.nextFrame()
        #expect(resumed.sequenceNumber == first.sequenceNumber + 1)
        // Half-frame exposures: frames 1/30 s apart.
        #expect(resumed.presentationTime - first.presentationTime == MediaTime(value: 1, timescale: 30))
        #expect(resumed.metadata.analogueGain == 5)
    }
}
