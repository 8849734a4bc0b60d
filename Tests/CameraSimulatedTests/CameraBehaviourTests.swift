import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// The simulated camera behaves like a real device: late controls, honest metadata, a bounded
/// pool, determinism, range checks.
@Suite struct CameraBehaviourTests {
    @Test func exposureRequestedAtFrameNShowsInFrameNPlus2() async throws {
        let camera = try rawCamera(.grayCard, seconds: 0.00025, width: 32, height: 24)
        _ = try await camera.captureFrame()                       // frame 0
        let frame1 = try await camera.captureFrame()
        try camera.requestExposure(duration: MediaTime(value: 1, timescale: 1000))
        try camera.requestGain(3)
        let frame2 = try await camera.captureFrame()
        let frame3 = try await camera.captureFrame()
        #expect(frame1.metadata.exposureDuration == MediaTime(value: 1, timescale: 4000))
        #expect(frame2.metadata.exposureDuration == MediaTime(value: 1, timescale: 4000))
        #expect(frame2.metadata.analogueGain == 3)
        #expect(frame3.metadata.exposureDuration == MediaTime(value: 1, timescale: 1000))
        #expect(camera.requestedExposure.exposure == MediaTime(value: 1, timescale: 1000))
        // The image follows the metadata, not the request.
        let before = mean(rawValues(frame1)), after = mean(rawValues(frame3))
        #expect(abs(after / before - 12) < 0.6)
    }

    @Test func sameSeedGivesIdenticalBytes() async throws {
        let a = try SimulatedCamera(scene: .backlitPortrait, format: smallFormat(64, 36), seed: 7)
        let b = try SimulatedCamera(scene: .backlitPortrait, format: smallFormat(64, 36), seed: 7)
        for _ in 0..<3 {
            let (fa, fb) = (try await a.captureFrame(), try await b.captureFrame())
            #expect(fa.buffer.bytes(plane: 0) == fb.buffer.bytes(plane: 0))
        }
    }

    @Test func differentSeedGivesDifferentNoise() async throws {
        let a = try SimulatedCamera(scene: .grayCard, format: smallFormat(64, 36), seed: 1)
        let b = try SimulatedCamera(scene: .grayCard, format: smallFormat(64, 36), seed: 2)
        for camera in [a, b] { try camera.requestExposure(duration: MediaTime(value: 1, timescale: 1000)) }
        let (fa, fb) = (try await a.captureFrame(), try await b.captureFrame())
        let differing = zip(fa.buffer.bytes(plane: 0), fb.buffer.bytes(plane: 0)).filter { $0 != $1 }.count
        #expect(differing > fa.buffer.width * fa.buffer.height)         // most pixels differ somewhere
        let next = try await a.captureFrame()
        #expect(next.buffer.bytes(plane: 0) != fa.buffer.bytes(plane: 0)) // and frame to frame
    }

    @Test func exhaustedPoolDropsTheFrameAndSkipsItsNumber() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), bufferCount: 2)
        var held = [try await camera.captureFrame(), try await camera.captureFrame()]
        await #expect(throws: BufferPoolError.outOfBuffers(capacity: 2)) { _ = try await camera.captureFrame() }
        #expect(held.map(\.sequenceNumber) == [0, 1])
        held.removeAll()
        let fresh = try await camera.captureFrame()
        #expect(fresh.sequenceNumber == 3)
    }

    @Test func longExposureStretchesTheFrame() async throws {
        let camera = try rawCamera(.nightStreet, seconds: 0.25, width: 32, height: 24)
        let first = try await camera.captureFrame(), second = try await camera.captureFrame()
        #expect(second.presentationTime - first.presentationTime == MediaTime(value: 1, timescale: 4))
        let short = try rawCamera(.nightStreet, seconds: 0.001, width: 32, height: 24)
        let a = try await short.captureFrame(), b = try await short.captureFrame()
        #expect(b.presentationTime - a.presentationTime == MediaTime(value: 1, timescale: 30))
    }

    @Test func realtimePacingWaitsForEachFrame() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), pacing: .realtime)
        let start = ContinuousClock.now
        for _ in 0..<3 { _ = try await camera.captureFrame() }
        #expect(ContinuousClock.now - start >= .milliseconds(95))  // three frames of 1/30 s
    }

    @Test(arguments: ["exposure duration", "analogue gain", "exposure bias", "zoom factor", "lens position"])
    func outOfRangeSettingsThrowNamingTheRange(setting: String) throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24))
        let error = try #require(throws: ValueOutOfRangeError.self) {
            switch setting {
            case "exposure duration": try camera.requestExposure(duration: MediaTime(value: 1, timescale: 2))
            case "analogue gain": try camera.requestGain(65)
            case "exposure bias": try camera.setExposureBias(-8.5)
            case "zoom factor": try camera.setZoomFactor(0.5)
            default: try camera.setLensPosition(1.2)
            }
        }
        #expect(error.setting == setting)
        #expect(error.description.contains("outside the supported range"))
    }

    @Test func unsupportedFrameRateIsRejected() {
        #expect(throws: ValueOutOfRangeError.self) {
            try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), frameRate: 200)
        }
    }

    @Test(arguments: [PixelFormat.bgra8, .nv12(.video), .nv12(.full), .yuyv422, .gray8])
    func everyFormatRendersTheSameBrightness(format: PixelFormat) async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(64, 48, format))
        try camera.requestExposure(duration: MediaTime(value: 1, timescale: 1000))
        let frame = try await camera.captureFrame()
        let rgb = frame.buffer.rgb8()
        let card = camera.groundTruth(for: frame).subjectMask
        let greens = (0..<(64 * 48)).filter { card[$0] == 1 }.map { Double(rgb[$0 * 3 + 1]) }
        // The card sits at 10% of full scale: sRGB-encoded 0.1 is 89/255.
        #expect(abs(mean(greens) - 89) < 4, "\(format): \(mean(greens))")
    }
}
