import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2Camera menu and white-balance controls")
struct V4L2CameraMenuTests {
    /// The standard controls with `auto_exposure` and `power_line_frequency` offering only `exposureModes` and `powerLineModes`.
    private func controls(exposureModes: [Int32], powerLineModes: [Int32] = [0, 1, 2]) -> [V4L2ControlRange] {
        ScriptedV4L2Driver.standardControls.map { range in
            var range = range
            if range.id == .exposureAuto { range.menu = exposureModes }
            if range.id == .powerLineFrequency { range.menu = powerLineModes }
            return range
        }
    }

    @Test("a menu listing shutter priority but not manual mode: the stream starts in shutter priority and CameraSun sets the time")
    func shutterPriority() async throws {
        let (driver, camera) = try scriptedCamera(controls: controls(exposureModes: [2, 3]))
        #expect(camera.capabilities.exposureDuration == 0.0003...0.2047)
        try camera.startStreaming()
        #expect(driver.log[4...6] == ["VIDIOC_S_CTRL auto_exposure=2", "VIDIOC_S_CTRL focus_automatic_continuous=0",
                                      "VIDIOC_G_CTRL exposure_time_absolute"])
        #expect(driver.value(of: .exposureAuto) == 2)
        driver.clearLog()
        try camera.apply(SensorControls(exposureDuration: 0.01, analogueGain: 1))
        #expect(driver.log.first == "VIDIOC_S_CTRL exposure_time_absolute=100")
    }

    @Test("a menu listing neither manual nor shutter priority: exposure is a capability the camera lacks — never set, never read")
    func exposureNotControllable() async throws {
        let (driver, camera) = try scriptedCamera(controls: controls(exposureModes: [0, 3]))
        #expect(camera.capabilities.exposureDuration == (1.0 / 30)...(1.0 / 30))
        #expect(camera.capabilities.analogueGain == 1...16)
        #expect(throws: ValueOutOfRangeError(setting: "exposure duration", value: 0.01, range: (1.0 / 30)...(1.0 / 30), unit: "s")) {
            try camera.apply(SensorControls(exposureDuration: 0.01, analogueGain: 1))
        }
        try camera.startStreaming()
        #expect(!driver.log.contains { $0.contains("auto_exposure") || $0.contains("exposure_time_absolute") })
        #expect(driver.value(of: .exposureAuto) == 3)
        driver.clearLog()
        try camera.apply(SensorControls(exposureDuration: 1.0 / 30, analogueGain: 2, flicker: .hz50))
        #expect(driver.log == ["VIDIOC_S_CTRL gain=17"])
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.exposureDuration.seconds == 1.0 / 30)
    }

    @Test("anti-flicker sets only a power_line_frequency entry the menu lists: 50 Hz on a camera without 60 Hz, not 60 Hz")
    func powerLineEntries() throws {
        let (driver, camera) = try scriptedCamera(controls: controls(exposureModes: [1, 3], powerLineModes: [0, 1]))
        try camera.startStreaming()
        driver.clearLog()
        try camera.apply(SensorControls(exposureDuration: 0.025, analogueGain: 1, flicker: .hz60))
        #expect(driver.log.isEmpty)
        try camera.apply(SensorControls(exposureDuration: 0.025, analogueGain: 1, flicker: .off))
        #expect(driver.log == ["VIDIOC_S_CTRL power_line_frequency=0"])
    }

    @Test("white balance: a manual temperature turns the camera's auto off and sets the nearest temperature; locked holds it; auto turns it back on")
    func whiteBalance() throws {
        let (driver, camera) = try streamingCamera()
        let controls = SensorControls(exposureDuration: 0.025, analogueGain: 1, flicker: .hz50)
        try camera.configure { $0.whiteBalanceMode = .manualTemperature(ColorTemperature(3204)) }
        try camera.apply(controls)
        #expect(driver.log == ["VIDIOC_S_CTRL white_balance_automatic=0", "VIDIOC_S_CTRL white_balance_temperature=3204"])
        driver.clearLog()
        try camera.configure { $0.whiteBalanceMode = .manualTemperature(ColorTemperature(9000)) }
        try camera.apply(controls)
        #expect(driver.log == ["VIDIOC_S_CTRL white_balance_temperature=6500"])
        driver.clearLog()
        try camera.configure { $0.whiteBalanceMode = .locked }
        try camera.apply(controls)
        #expect(driver.log.isEmpty)
        try camera.configure { $0.whiteBalanceMode = .auto }
        try camera.apply(controls)
        #expect(driver.log == ["VIDIOC_S_CTRL white_balance_automatic=1"])
        #expect(driver.value(of: .whiteBalanceAutomatic) == 1)
    }

    @Test("QUERYMENU failing otherwise than EINVAL fails the probe, naming the request")
    func menuFailure() throws {
        let driver = ScriptedV4L2Driver()
        driver.fail(.queryMenu, with: .ioError)
        #expect(throws: CaptureError.deviceFailure(device: "/dev/video0",
                                                   detail: "cannot list a control's menu on /dev/video0: Input/output error")) {
            try V4L2Camera(path: "/dev/video0", driver: driver)
        }
    }
}
