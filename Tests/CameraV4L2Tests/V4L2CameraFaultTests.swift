import CameraCapture
import CameraCore
import CameraSystem
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2Camera faults")
struct V4L2CameraFaultTests {
    static let busy = CaptureError.interrupted(.deviceInUseByAnotherClient,
                                               detail: "another program is using /dev/video0 — close it, then start the camera again")
    static let denied = CaptureError.notAuthorized(device: "/dev/video0",
                                                   remedy: "add your user to the video group: sudo usermod -aG video $USER, then log in again")
    static let removed = CaptureError.interrupted(.deviceRemoved,
                                                  detail: "/dev/video0 was disconnected — plug the camera back in, then start it again")

    @Test("EBUSY on open: the camera is in use by another program, which the message says to close")
    func busyOnOpen() throws {
        let driver = ScriptedV4L2Driver()
        driver.fail(.open, with: .busy)
        #expect(throws: Self.busy) { try V4L2Camera(path: "/dev/video0", driver: driver) }
        #expect(Self.busy.description
            == "camera interrupted (deviceInUseByAnotherClient): another program is using /dev/video0 — close it, then start the camera again")
        #expect(driver.log == ["open /dev/video0"])
    }

    @Test("EACCES on open: authorization denied, with the video group remedy — when probing and when starting")
    func deniedOnOpen() throws {
        let driver = ScriptedV4L2Driver()
        driver.fail(.open, with: .permissionDenied)
        #expect(throws: Self.denied) { try V4L2Camera(path: "/dev/video0", driver: driver) }
        #expect(Self.denied.description
            == "not allowed to use /dev/video0 — add your user to the video group: sudo usermod -aG video $USER, then log in again")
        let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
        driver.fail(.open, with: .permissionDenied)
        #expect(throws: Self.denied) { try camera.startStreaming() }
        try camera.startStreaming()
        #expect(driver.isStreaming)
    }

    @Test("EBUSY from REQBUFS (another program streams) closes what was opened, in order, and reports the busy camera")
    func busyOnBuffers() throws {
        let (driver, camera) = try scriptedCamera()
        driver.fail(.requestBuffers, with: .busy)
        #expect(throws: Self.busy) { try camera.startStreaming() }
        #expect(Array(driver.log.suffix(2)) == ["VIDIOC_REQBUFS 4", "close"])
        try camera.startStreaming()
        #expect(driver.isStreaming)
    }

    @Test("a failure after the buffers are mapped unmaps each, gives them back and closes, without STREAMOFF")
    func failureAfterMapping() throws {
        let (driver, camera) = try scriptedCamera()
        driver.fail(.streamOn, with: .ioError)
        #expect(throws: CaptureError.deviceFailure(device: "/dev/video0", detail: "cannot start streaming on /dev/video0: Input/output error")) {
            try camera.startStreaming()
        }
        #expect(Array(driver.log.suffix(7)) == ["VIDIOC_STREAMON", "munmap 0", "munmap 1", "munmap 2", "munmap 3", "VIDIOC_REQBUFS 0", "close"])
    }

    @Test("EAGAIN from DQBUF: wait again, and the frame comes")
    func wouldBlock() async throws {
        let (driver, camera) = try streamingCamera()
        driver.fail(.dequeueBuffer, with: .wouldBlock, times: 2)
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 0)
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "poll", "VIDIOC_DQBUF", "poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
    }

    @Test("EINTR from poll and from DQBUF: retried, and the frame comes")
    func interruptedCalls() async throws {
        let (driver, camera) = try streamingCamera()
        driver.fail(.poll, with: .interrupted)
        driver.fail(.dequeueBuffer, with: .interrupted)
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 0)
        #expect(driver.log == ["poll", "poll", "VIDIOC_DQBUF", "poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
    }

    @Test("ENODEV mid-stream: the stream ends (unmapped, closed) with deviceRemoved; it starts again once the camera is back")
    func unplugged() async throws {
        let (driver, camera) = try streamingCamera()
        _ = try await camera.nextFrame()
        driver.clearLog()
        driver.unplug()
        await #expect(throws: Self.removed) { try await camera.nextFrame() }
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_STREAMOFF", "munmap 0", "munmap 1", "munmap 2", "munmap 3", "VIDIOC_REQBUFS 0", "close"])
        #expect(Self.removed.description
            == "camera interrupted (deviceRemoved): /dev/video0 was disconnected — plug the camera back in, then start it again")
        #expect(throws: CaptureError.interrupted(.deviceRemoved,
                                                 detail: "there is no /dev/video0 — plug the camera in or check the path, then start it again")) {
            try camera.startStreaming()
        }
        driver.replug()
        try camera.startStreaming()
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 1)
    }

    @Test("a buffer flagged V4L2_BUF_FLAG_ERROR: the frame is dropped with its reason, the buffer goes back, the next frame comes")
    func corruptFrame() async throws {
        let (driver, camera) = try streamingCamera()
        driver.corruptNextFrame()
        await #expect(throws: CaptureError.frameDropped(.damaged)) { try await camera.nextFrame() }
        #expect(CaptureError.frameDropped(.damaged).description == "frame dropped (damaged)")
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 1)
    }

    @Test("every pool buffer held: the frame is dropped for want of buffers and its driver buffer queued again")
    func outOfBuffers() async throws {
        let (driver, camera) = try streamingCamera()
        var held: [Frame] = []
        for _ in 0..<camera.bufferCount { held.append(try await camera.nextFrame()) }
        driver.clearLog()
        await #expect(throws: CaptureError.frameDropped(.outOfBuffers)) { try await camera.nextFrame() }
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
        held.removeAll()
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 5)
    }

    @Test("a node that is not a video capture device is refused, naming it")
    func notCapture() throws {
        let driver = ScriptedV4L2Driver(metadataNodes: ["/dev/video1"])
        let refusal = "/dev/video1 (Scripted vivid camera, driver vivid) is not a video capture device with streaming I/O"
            + " — choose another /dev/video node"
        #expect(throws: CaptureError.invalidConfiguration(refusal)) {
            try V4L2Camera(path: "/dev/video1", driver: driver)
        }
        #expect(driver.log == ["open /dev/video1", "VIDIOC_QUERYCAP", "close"])
    }
}
