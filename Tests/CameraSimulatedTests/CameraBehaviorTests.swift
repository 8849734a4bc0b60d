import CameraCapture
import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// The simulated camera behaves like a real device: late controls, honest metadata, a bounded
/// pool, determinism, range checks.
@Suite struct CameraBehaviorTests {
    @Test func appliedExposureShowsTwoFramesLateAndGainOneFrameLate() async throws {
        let camera = try rawCamera(.grayCard, seconds: 0.00025, width: 32, height: 24)
        _ = try await camera.nextFrame()                          // frame 0
        let frame1 = try await camera.nextFrame()
        var controls = camera.requestedControls
        controls.exposureDuration = 0.001
        controls.analogueGain = 3
        try camera.apply(controls)                                // while frame 1 is the last scheduled
        let frame2 = try await camera.nextFrame()
        let frame3 = try await camera.nextFrame()
        #expect(frame1.metadata.exposureDuration == MediaTime(value: 1, timescale: 4000))
        #expect(frame1.metadata.analogueGain == 1)
        #expect(frame2.metadata.exposureDuration == MediaTime(value: 1, timescale: 4000))
        #expect(frame2.metadata.analogueGain == 3)
        #expect(frame3.metadata.exposureDuration == MediaTime(value: 1, timescale: 1000))
        #expect(frame3.metadata.analogueGain == 3)
        #expect(camera.requestedControls.exposureDuration == 0.001)
        // The image follows the metadata, not the request.
        let before = mean(rawValues(frame1)), after = mean(rawValues(frame3))
        #expect(abs(after / before - 12) < 0.6)
    }

    @Test func otherControlsApplyFromTheNextFrame() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24))
        _ = try await camera.nextFrame()
        let gains = WhiteBalanceGains(red: 1.5, green: 1, blue: 2)
        try camera.apply(SensorControls(exposureDuration: 0.002, analogueGain: 2, digitalGain: 1.5, whiteBalance: gains,
                                        lensPosition: 0.4, zoomFactor: 1.5, exposureBias: -1, flicker: .hz50, torchLevel: 0.5))
        let metadata = try await camera.nextFrame().metadata
        #expect(metadata.digitalGain == 1.5)
        #expect(metadata.whiteBalanceGains == gains)
        #expect(metadata.lensPosition == 0.4)
        #expect(metadata.zoomFactor == 1.5)
        #expect(metadata.exposureBias == -1)
        #expect(metadata.flicker == .hz50)
        #expect(metadata.analogueGain == 2)
        #expect(metadata.exposureDuration == MediaTime(value: 1, timescale: 60))  // still the initial half frame
    }

    @Test func requestsApplyAtOnceWhileStopped() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24))
        _ = try await camera.nextFrame()
        try camera.updateControls { $0.exposureDuration = 0.004 }   // due at frame 2
        camera.stopStreaming()                                      // the sensor catches up
        try camera.updateControls { $0.analogueGain = 5 }
        try camera.startStreaming()
        let first = try await camera.nextFrame()
        #expect(first.sequenceNumber == 1)
        #expect(first.metadata.exposureDuration == MediaTime(value: 1, timescale: 250))
        #expect(first.metadata.analogueGain == 5)
    }

    @Test(arguments: [(1.0 / 30, MediaTime(value: 1, timescale: 30)), (1.0 / 1714, MediaTime(value: 1, timescale: 1714)),
                      (0.0015, MediaTime(value: 1500, timescale: 1_000_000)), (0.1234567, MediaTime(value: 123457, timescale: 1_000_000))])
    func exposureTimesAreExactForWholeFractionsOfASecond(seconds: Double, expected: MediaTime) async throws {
        let camera = try rawCamera(.grayCard, seconds: seconds, width: 32, height: 24)
        let exposure = try await camera.nextFrame().metadata.exposureDuration
        #expect(exposure == expected)
        #expect(exposure.value == expected.value && exposure.timescale == expected.timescale)
    }

    @Test func sameSeedGivesIdenticalBytes() async throws {
        let a = try streamingCamera(.backlitPortrait, format: smallFormat(64, 36), seed: 7)
        let b = try streamingCamera(.backlitPortrait, format: smallFormat(64, 36), seed: 7)
        for _ in 0..<3 {
            let (fa, fb) = (try await a.nextFrame(), try await b.nextFrame())
            #expect(fa.buffer.bytes(plane: 0) == fb.buffer.bytes(plane: 0))
        }
    }

    @Test func differentSeedGivesDifferentNoise() async throws {
        let a = try streamingCamera(.grayCard, format: smallFormat(64, 36), seed: 1)
        let b = try streamingCamera(.grayCard, format: smallFormat(64, 36), seed: 2)
        for camera in [a, b] { try camera.updateControls { $0.exposureDuration = 0.001 } }
        let (fa, fb) = (try await a.nextFrame(), try await b.nextFrame())
        let differing = zip(fa.buffer.bytes(plane: 0), fb.buffer.bytes(plane: 0)).filter { $0 != $1 }.count
        #expect(differing > fa.buffer.width * fa.buffer.height)         // most pixels differ somewhere
        let next = try await a.nextFrame()
        #expect(next.buffer.bytes(plane: 0) != fa.buffer.bytes(plane: 0)) // and frame to frame
    }

    @Test func exhaustedPoolDropsTheFrameAndSkipsItsNumber() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24), bufferCount: 2)
        var held = [try await camera.nextFrame(), try await camera.nextFrame()]
        await #expect(throws: CaptureError.frameDropped(.outOfBuffers)) { _ = try await camera.nextFrame() }
        #expect(held.map(\.sequenceNumber) == [0, 1])
        held.removeAll()
        let fresh = try await camera.nextFrame()
        #expect(fresh.sequenceNumber == 3)
    }

    @Test func longExposureStretchesTheFrame() async throws {
        let camera = try rawCamera(.nightStreet, seconds: 0.25, width: 32, height: 24)
        let first = try await camera.nextFrame(), second = try await camera.nextFrame()
        #expect(second.presentationTime - first.presentationTime == MediaTime(value: 1, timescale: 4))
        let short = try rawCamera(.nightStreet, seconds: 0.001, width: 32, height: 24)
        let a = try await short.nextFrame(), b = try await short.nextFrame()
        #expect(b.presentationTime - a.presentationTime == MediaTime(value: 1, timescale: 30))
    }

    @Test func realtimePacingWaitsForEachFrame() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24), pacing: .realtime)
        let start = ContinuousClock.now
        for _ in 0..<3 { _ = try await camera.nextFrame() }
        // A lower bound: the camera does not deliver a frame before it is due (three of 1/30 s).
        // How much later it may deliver is no part of the behaviour, so there is no upper bound.
        #expect(ContinuousClock.now - start >= .milliseconds(95))
    }

    @Test(arguments: ["exposure duration", "analogue gain", "digital gain", "blue white-balance gain", "exposure bias",
                      "zoom factor", "lens position", "torch level"])
    func outOfRangeControlsThrowNamingTheRangeAndChangeNothing(setting: String) throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24))
        let before = camera.requestedControls
        var controls = before
        controls.exposureBias = 1                                  // a valid change that must not stick
        switch setting {
        case "exposure duration": controls.exposureDuration = 0.5
        case "analogue gain": controls.analogueGain = 65
        case "digital gain": controls.digitalGain = 0.5
        case "blue white-balance gain": controls.whiteBalance.blue = 20
        case "exposure bias": controls.exposureBias = -8.5
        case "zoom factor": controls.zoomFactor = 0.5
        case "lens position": controls.lensPosition = 1.2
        default: controls.torchLevel = 1.5
        }
        let error = try #require(throws: ValueOutOfRangeError.self) { try camera.apply(controls) }
        #expect(error.setting == setting)
        #expect(error.description.contains("outside the supported range"))
        #expect(camera.requestedControls == before)
    }

    @Test func unsupportedFrameRateIsRejected() {
        let error = #expect(throws: ValueOutOfRangeError.self) {
            try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), frameRate: 200)
        }
        #expect(error?.description == "frame rate for 32x24 200 fps is outside the supported range 1…30 fps — choose a value in that range")
    }

    @Test(arguments: [PixelFormat.bgra8, .nv12(.video), .nv12(.full), .yuyv422, .gray8])
    func everyFormatRendersTheSameBrightness(format: PixelFormat) async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(64, 48, format))
        try camera.updateControls { $0.exposureDuration = 0.001 }
        try camera.startStreaming()
        let frame = try await camera.nextFrame()
        let rgb = frame.buffer.rgb8()
        let card = camera.groundTruth(for: frame).subjectMask
        let greens = (0..<(64 * 48)).filter { card[$0] == 1 }.map { Double(rgb[$0 * 3 + 1]) }
        // The card sits at 10% of full scale: sRGB-encoded 0.1 is 89/255.
        #expect(abs(mean(greens) - 89) < 4, "\(format): \(mean(greens))")
    }
}
