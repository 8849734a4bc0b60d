import CameraCapture
import CameraCore
import CameraTestSupport
import Testing
@testable import CameraSimulated

/// The stream's life: explicit start and stop, interruptions when the simulated device is busy or
/// unplugged, recovery, and a format change taking effect at the next start.
@Suite struct DeviceLifecycleTests {
    @Test func nextFrameNeedsAStartedStream() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24))
        await #expect(throws: CaptureError.deviceFailure(
            device: "sim:gray-card", detail: "the stream is not started — call startStreaming() before nextFrame()")) {
            _ = try await camera.nextFrame()
        }
        try camera.startStreaming()
        try camera.startStreaming()                                 // starting twice changes nothing
        #expect(try await camera.nextFrame().sequenceNumber == 0)
        camera.stopStreaming()
        camera.stopStreaming()
        await #expect(throws: CaptureError.self) { _ = try await camera.nextFrame() }
    }

    @Test func aBusyCameraInterruptsTheStreamUntilItIsReleasedAndStartedAgain() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24))
        let first = try await camera.nextFrame()
        camera.simulateAvailability(.busy)
        let busy = CaptureError.interrupted(.deviceInUseByAnotherClient,
                                            detail: "sim:gray-card is in use by another client — start the stream again once it is released")
        await #expect(throws: busy) { _ = try await camera.nextFrame() }
        #expect(throws: busy) { try camera.startStreaming() }
        camera.simulateAvailability(.available)
        await #expect(throws: CaptureError.self) { _ = try await camera.nextFrame() }   // the interruption ended the stream
        try camera.startStreaming()
        let resumed = try await camera.nextFrame()
        #expect(resumed.sequenceNumber == first.sequenceNumber + 1)
        #expect(resumed.presentationTime == MediaTime(value: 1, timescale: 30))
    }

    @Test func anUnpluggedCameraReportsItsRemoval() async throws {
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: smallFormat(32, 24))
        camera.simulateAvailability(.removed)
        let error = #expect(throws: CaptureError.self) { try camera.startStreaming() }
        #expect(error == .interrupted(.deviceRemoved, detail: "sim:backlit-portrait was disconnected — start the stream again once it is back"))
        #expect(error?.description == "camera interrupted (deviceRemoved): sim:backlit-portrait was disconnected — start the stream again once it is back")
        camera.simulateAvailability(.available)
        try camera.startStreaming()
        #expect(try await camera.nextFrame().sequenceNumber == 0)
    }

    @Test func aRemovalWhileWaitingForARealtimeFrameInterruptsIt() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), frameRate: 1, pacing: .realtime)
        try camera.startStreaming()
        let waiting = Task { try await camera.nextFrame() }        // due after 1 s
        #expect(try await eventually { camera.isAwaitingFrame })
        camera.simulateAvailability(.removed)
        await #expect(throws: CaptureError.interrupted(.deviceRemoved,
                                                       detail: "sim:gray-card was disconnected — start the stream again once it is back")) {
            _ = try await waiting.value
        }
    }

    @Test func cancellingAWaitingFrameThrowsCancellationError() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(32, 24), frameRate: 1, pacing: .realtime)
        try camera.startStreaming()
        let waiting = Task { try await camera.nextFrame() }        // due after 1 s
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
    }

    @Test func aNewFormatAndRateApplyAtTheNextStart() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(32, 24))
        let vga = try #require(camera.formats.first { $0.size == PixelSize(width: 640, height: 480) && $0.pixelFormat == .gray8 })
        let before = try await camera.nextFrame()
        try camera.configure { settings in
            settings.activeFormat = vga
            settings.frameRate = 10
        }
        let stillOld = try await camera.nextFrame()                 // the running stream keeps its format
        #expect(stillOld.buffer.width == 32 && stillOld.buffer.format == .bgra8)
        #expect(stillOld.presentationTime - before.presentationTime == MediaTime(value: 1, timescale: 30))
        camera.stopStreaming()
        try camera.startStreaming()
        let first = try await camera.nextFrame(), second = try await camera.nextFrame()
        #expect(first.buffer.width == 640 && first.buffer.height == 480 && first.buffer.format == .gray8)
        #expect(second.presentationTime - first.presentationTime == MediaTime(value: 1, timescale: 10))
        #expect(first.metadata.rowReadoutTime == 0.8 / 120 / 480)
        // Ground truth follows each frame's own size, old or new.
        #expect(camera.groundTruth(for: stillOld).subjectMask.count == 32 * 24)
        #expect(camera.groundTruth(for: first).subjectMask.count == 640 * 480)
    }
}
