import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2Camera MJPEG")
struct V4L2CameraMJPEGTests {
    /// A scripted camera streaming its MJPEG format at `size`, the requests so far forgotten.
    private func mjpegCamera(_ size: PixelSize = size1280) throws -> (ScriptedV4L2Driver, V4L2Camera) {
        let (driver, camera) = try scriptedCamera()
        let format = try #require(camera.formats.first { $0.pixelFormat == .bgra8 && $0.size == size })
        try camera.configure { $0.activeFormat = format }
        try camera.startStreaming()
        #expect(driver.log[2] == "VIDIOC_S_FMT \(size) MJPG")
        driver.clearLog()
        return (driver, camera)
    }

    /// The bytes of a frame of the grey card at `luma`: every colour channel at it, alpha opaque.
    private func card(_ luma: UInt8) -> Set<UInt8> { [luma, 255] }

    @Test("an MJPEG frame is decoded into a bgra8 buffer of its size, with the card's level; a darker exposure decodes darker")
    func decodes() async throws {
        let (driver, camera) = try mjpegCamera()
        let frame = try await camera.nextFrame()
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
        #expect(frame.buffer.format == .bgra8)
        #expect(frame.buffer.width == 1280 && frame.buffer.height == 720)
        #expect(distinctBytes(frame.buffer, plane: 0) == card(ScriptedV4L2Driver.luma(exposureUnits: 250, gain: 0)))
        #expect(frame.sequenceNumber == 0)
        try camera.apply(SensorControls(exposureDuration: 0.01, analogueGain: 1))
        let darker = try await camera.nextFrame()
        #expect(distinctBytes(darker.buffer, plane: 0) == card(ScriptedV4L2Driver.luma(exposureUnits: 100, gain: 0)))
        #expect(darker.metadata.exposureDuration.seconds == 0.01)
    }

    @Test("an MJPEG buffer that does not decode — cut short, or empty (bytesused 0) — is dropped as damaged and queued again",
          arguments: [2000, 0])
    func undecodable(bytesUsed: Int) async throws {
        let (driver, camera) = try mjpegCamera(size640)
        driver.truncateNextFrame(to: bytesUsed)
        await #expect(throws: CaptureError.frameDropped(.damaged)) { try await camera.nextFrame() }
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 1)
        #expect(distinctBytes(frame.buffer, plane: 0) == card(ScriptedV4L2Driver.luma(exposureUnits: 250, gain: 0)))
    }

    @Test("a camera that reaches 30 fps only in MJPEG at its largest size starts in MJPEG; at a size both reach, in YUYV")
    func preferred() throws {
        let mjpeg = V4L2FormatDescription(code: .mjpeg, name: "Motion-JPEG", isCompressed: true)
        let yuyv = V4L2FormatDescription(code: .yuyv, name: "YUYV 4:2:2")
        let onlyMJPEG = try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: [mjpeg]))
        #expect(onlyMJPEG.activeFormat == DeviceFormat(size: size1280, pixelFormat: .bgra8, frameRateRanges: [
            FrameRateRange(minimum: 30, maximum: 30), FrameRateRange(minimum: 15, maximum: 15),
        ]))
        let both = try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: [mjpeg, yuyv]))
        #expect(both.formats.map(\.pixelFormat) == [.bgra8, .bgra8, .yuyv422, .yuyv422])
        #expect(both.activeFormat.pixelFormat == .yuyv422 && both.activeFormat.size == size1280)
    }

    @Test("MJPEG and JPEG on one camera are offered once, as MJPEG; JPEG alone streams as JPEG")
    func jpegCode() async throws {
        let jpeg = V4L2FormatDescription(code: .jpeg, name: "JPEG JFIF", isCompressed: true)
        let mjpeg = V4L2FormatDescription(code: .mjpeg, name: "Motion-JPEG", isCompressed: true)
        let twice = try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: [mjpeg, jpeg]))
        #expect(twice.formats.count == 2)
        let driver = ScriptedV4L2Driver(formats: [jpeg])
        let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
        driver.clearLog()
        try camera.startStreaming()
        #expect(driver.log[2] == "VIDIOC_S_FMT 1280x720 JPEG")
        let frame = try await camera.nextFrame()
        #expect(distinctBytes(frame.buffer, plane: 0) == card(ScriptedV4L2Driver.luma(exposureUnits: 250, gain: 0)))
    }

    @Test("a camera with no format CameraSun takes (H.264 only) is refused, naming the codes it takes")
    func noFormat() throws {
        let h264 = V4L2FormatDescription(code: FourCC(rawValue: 0x3436_3248), name: "H.264", isCompressed: true)
        #expect(h264.code.description == "H264")
        #expect(throws: CaptureError.invalidConfiguration("/dev/video0 (Scripted vivid camera) offers no format CameraSun can take "
                + "(YUYV, NV12, GREY, MJPG, JPEG, RGGB, GRBG, GBRG, BA81, RG10, BA10, GB10, BG10, RG12, BA12, GB12, BG12, RG16, GR16, "
                + "GB16 or BYR2; Bayer unpacked only, not packed MIPI formats such as pRAA) — choose another camera")) {
            try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: [h264]))
        }
    }
}
