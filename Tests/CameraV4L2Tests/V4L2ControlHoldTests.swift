import CameraCapture
import CameraTestSupport
import CameraV4L2
import Testing

@Suite("V4L2 controls held within a step")
struct V4L2ControlHoldTests {
    private let gain = V4L2ControlRange(id: .gain, minimum: 0, maximum: 255, step: 5, defaultValue: 0)

    @Test("nearest(holding:) keeps the current value while the value asked is within a step of it, else moves to the nearest",
          arguments: [(12.0, 10, 10), (7.6, 10, 10), (14.9, 10, 10), (15.2, 10, 15), (4.0, 10, 5), (12.0, nil, 10), (300, 10, 255)] as [(Double, Int32?, Int32)])
    func holding(asked: Double, current: Int32?, expected: Int32) {
        #expect(gain.nearest(asked, holding: current) == expected)
    }

    /// The gain value v of 0…255 as the analogue gain `SensorControls` asks for (×1 + 15·v/255).
    private func controls(gainValue: Double) -> SensorControls {
        SensorControls(exposureDuration: 0.025, analogueGain: 1 + gainValue * 15 / 255, flicker: .hz50)
    }

    @Test("a gain asked either side of the midpoint between two steps is set once, not flipped every frame")
    func noFlipping() throws {
        let (driver, camera) = try streamingCamera()
        try camera.apply(controls(gainValue: 10.4))
        try camera.apply(controls(gainValue: 10.6))
        try camera.apply(controls(gainValue: 10.4))
        #expect(driver.log == ["VIDIOC_S_CTRL gain=10"])
        driver.clearLog()
        try camera.apply(controls(gainValue: 11.2))
        #expect(driver.log == ["VIDIOC_S_CTRL gain=11"])
    }
}
