import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2Camera in a session")
struct V4L2SessionTests {
    /// A session on a scripted camera streaming 64x48 GREY into one output, and that output's frames.
    private func session() async throws -> (ScriptedV4L2Driver, CaptureSession, VideoDataOutput.Frames.Iterator) {
        let driver = ScriptedV4L2Driver(frameSizes: [.discrete(PixelSize(width: 64, height: 48))])
        let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
        let format = try #require(camera.formats.first { $0.pixelFormat == .gray8 })
        try camera.configure { $0.activeFormat = format }
        let output = VideoDataOutput()
        let session = CaptureSession(interruptionRetryInterval: .milliseconds(1))
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            try config.add(output)
        }
        return (driver, session, output.frames.makeAsyncIterator())
    }

    @Test("the session's auto-exposure sets manual exposure and lengthens exposure_time_absolute on a dark grey card")
    func autoExposureDrivesTheControls() async throws {
        var (driver, session, frames) = try await session()
        try await session.start()
        var frame = try #require(await frames.next())
        while frame.metadata.exposureDuration.seconds <= 0.025, frame.sequenceNumber < 30 { frame = try #require(await frames.next()) }
        await session.stop()
        #expect(driver.value(of: .exposureAuto) == 1)
        #expect(frame.metadata.exposureDuration.seconds > 0.025, "frame \(frame.sequenceNumber) still at the 25 ms it started with")
        #expect(try #require(driver.value(of: .exposureTimeAbsolute)) > 250)
        #expect(driver.log.contains { $0.hasPrefix("VIDIOC_S_CTRL exposure_time_absolute=") })
    }

    @Test("unplugged mid-stream: the session reports the removed camera, retries while it is gone, and resumes once it is back")
    func unplugAndReplug() async throws {
        var (driver, session, frames) = try await session()
        var events = session.events().makeAsyncIterator()
        try await session.start()
        #expect(await events.next() == .started)
        #expect(await frames.next() != nil)
        driver.clearLog()
        driver.unplug()
        #expect(await events.next() == .interrupted(.deviceRemoved))
        #expect(try await eventually { driver.log.count { $0 == "open /dev/video0" } >= 3 }, "the loop restarts the camera while it is gone")
        #expect(await session.isInterrupted)
        driver.replug()
        #expect(await events.next() == .interruptionEnded)
        let delivered = UInt64(driver.framesDelivered)
        var frame = try #require(await frames.next())
        while frame.sequenceNumber < delivered { frame = try #require(await frames.next()) }
        #expect(driver.isStreaming)
        await session.stop()
        #expect(await events.next() == .stopped)
        #expect(!driver.isStreaming)
    }
}
