import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2Camera controls")
struct V4L2CameraControlTests {
    /// What the 3A engine asks when only the exposure time and gain move.
    private func controls(exposure: Double, gain: Double = 1) -> SensorControls {
        SensorControls(exposureDuration: exposure, analogueGain: gain, flicker: .hz50)
    }

    @Test("the control ranges become the capabilities: exposure in 100 µs units, gain ×1…×16, zoom over its minimum, focus 0…1")
    func capabilities() throws {
        let (_, camera) = try scriptedCamera()
        let capabilities = camera.capabilities
        #expect(capabilities.exposureDuration == 0.0003...0.2047)
        #expect(capabilities.analogueGain == 1...16)
        #expect(capabilities.zoomFactor == 1...5)
        #expect(capabilities.lensPosition == 0...1)
        #expect(capabilities.baseISO == 100)
        #expect(!capabilities.hasTorch && !capabilities.hasFlash)
        #expect(camera.controls.ranges[.whiteBalanceTemperature]?.description == "white_balance_temperature 2000…6500 step 1 (default 4000)")
        #expect(camera.controls.ranges[.exposureAuto]?.description == "auto_exposure menu 1, 3 (default 3)")
        #expect(camera.controls.ranges[.powerLineFrequency]?.menu == [0, 1, 2])
        #expect(camera.controls.ranges.count == 9)
    }

    @Test("a change of exposure sends one S_CTRL, and the next frame is darker and says so")
    func exposureChange() async throws {
        let (driver, camera) = try streamingCamera()
        try camera.apply(controls(exposure: 0.01))
        #expect(driver.log == ["VIDIOC_S_CTRL exposure_time_absolute=100"])
        #expect(driver.value(of: .exposureTimeAbsolute) == 100)
        let frame = try await camera.nextFrame()
        #expect(ScriptedV4L2Driver.luma(exposureUnits: 100, gain: 0) == 32)
        #expect(distinctBytes(frame.buffer, plane: 0) == [32, 128])
        #expect(frame.metadata.exposureDuration.seconds == 0.01)
        driver.clearLog()
        try camera.apply(controls(exposure: 0.01))
        #expect(driver.log.isEmpty)
    }

    @Test("a gain of ×4 sets the gain control to 51 of 0…255, and the frame is four times brighter")
    func gainChange() async throws {
        let (driver, camera) = try streamingCamera()
        try camera.apply(controls(exposure: 0.025, gain: 4))
        #expect(driver.log == ["VIDIOC_S_CTRL gain=51"])
        let frame = try await camera.nextFrame()
        #expect(distinctBytes(frame.buffer, plane: 0) == [174, 128])
        #expect(frame.metadata.analogueGain == 4)
        #expect(frame.metadata.iso == 400)
    }

    @Test("zoom, focus and anti-flicker map onto their controls")
    func lensAndFlicker() async throws {
        let (driver, camera) = try streamingCamera()
        try camera.apply(SensorControls(exposureDuration: 0.025, analogueGain: 1, lensPosition: 0.2, zoomFactor: 2, flicker: .hz60))
        #expect(driver.log == ["VIDIOC_S_CTRL focus_absolute=200", "VIDIOC_S_CTRL zoom_absolute=200", "VIDIOC_S_CTRL power_line_frequency=2"])
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.zoomFactor == 2)
        #expect(frame.metadata.lensPosition == 0.2)
        #expect(frame.metadata.flicker == .hz60)
    }

    @Test("controls applied before the stream starts are set at the start instead of read")
    func appliedBeforeStart() throws {
        let (driver, camera) = try scriptedCamera()
        try camera.apply(controls(exposure: 0.005, gain: 2))
        #expect(driver.log.isEmpty)
        try camera.startStreaming()
        #expect(driver.log[4...10] == [
            "VIDIOC_S_CTRL auto_exposure=1", "VIDIOC_S_CTRL focus_automatic_continuous=0",
            "VIDIOC_S_CTRL exposure_time_absolute=50", "VIDIOC_S_CTRL gain=17", "VIDIOC_S_CTRL focus_absolute=0",
            "VIDIOC_S_CTRL zoom_absolute=100", "VIDIOC_S_CTRL power_line_frequency=1",
        ])
    }

    @Test("a value outside the capabilities throws naming the range, and nothing is sent")
    func outOfRange() throws {
        let (driver, camera) = try streamingCamera()
        #expect(throws: ValueOutOfRangeError(setting: "exposure duration", value: 1, range: 0.0003...0.2047, unit: "s")) {
            try camera.apply(controls(exposure: 1))
        }
        #expect(driver.log.isEmpty)
    }

    @Test("a camera without controls: fixed capabilities, no control requests, apply sends nothing")
    func noControls() async throws {
        let (driver, camera) = try scriptedCamera(controls: [])
        #expect(camera.capabilities.exposureDuration == (1.0 / 30)...(1.0 / 30))
        #expect(camera.capabilities.analogueGain == 1...1)
        #expect(camera.capabilities.zoomFactor == 1...1)
        #expect(camera.capabilities.lensPosition == 1...1)
        try camera.startStreaming()
        #expect(!driver.log.contains { $0.contains("CTRL") })
        driver.clearLog()
        try camera.apply(SensorControls(exposureDuration: 1.0 / 30, analogueGain: 1))
        #expect(driver.log.isEmpty)
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.exposureDuration.seconds == 1.0 / 30)
    }

    @Test("a mode or value the driver refuses at the start stays as the camera has it, read back, and the stream opens")
    func refusedAtStart() async throws {
        let (driver, camera) = try scriptedCamera()
        try camera.apply(controls(exposure: 0.01))
        driver.fail(.setControl, with: .invalidArgument, times: 2)
        driver.fail(.setControl, with: .outOfRange)
        try camera.startStreaming()
        #expect(driver.log[4...8] == [
            "VIDIOC_S_CTRL auto_exposure=1", "VIDIOC_S_CTRL focus_automatic_continuous=0",
            "VIDIOC_S_CTRL exposure_time_absolute=100", "VIDIOC_G_CTRL exposure_time_absolute", "VIDIOC_S_CTRL gain=0",
        ])
        #expect(driver.value(of: .exposureAuto) == 3)
        #expect(driver.value(of: .focusAuto) == 1)
        #expect(driver.isStreaming)
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.exposureDuration.seconds == 0.025)
    }

    @Test("a control the driver refuses keeps its value in the frames, and the next apply tries again")
    func refusedControl() async throws {
        let (driver, camera) = try streamingCamera()
        driver.fail(.setControl, with: .ioError)
        try camera.apply(controls(exposure: 0.01))
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.exposureDuration.seconds == 0.025)
        driver.clearLog()
        try camera.apply(controls(exposure: 0.01))
        #expect(driver.log == ["VIDIOC_S_CTRL exposure_time_absolute=100"])
    }
}
