import CameraCore
@testable import CameraExposure
import Testing

@Suite("3A controls: points of interest and locks")
struct ThreeAControlsTests {
    let program = ExposureProgram(durationRange: (1.0 / 8000)...(1.0 / 30), analogueGainRange: 1...64)

    @Test("Locks can be set one at a time, together, and released")
    func locks() throws {
        var controls = try ThreeAControls(program: program)
        #expect(controls.locks == .init(ae: false, af: false, awb: false))
        try controls.setLocks(af: true)
        #expect(controls.locks == .init(ae: false, af: true, awb: false))
        try controls.setLocks(ae: true, awb: true)
        #expect(controls.locks == .init(ae: true, af: true, awb: true))
        try controls.setLocks(ae: false, af: false, awb: false)
        #expect(controls.locks == .init(ae: false, af: false, awb: false))
        #expect(controls.exposure.mode == .continuousAuto && controls.focus.mode == .continuous && controls.whiteBalance.mode == .auto)
        try controls.lockAll()
        #expect(controls.locks == .init(ae: true, af: true, awb: true))
    }

    @Test("A tap meters and focuses there; each can be set on its own")
    func pointOfInterest() throws {
        var controls = try ThreeAControls(program: program)
        let point = NormalizedPoint(x: 0.8, y: 0.9)
        try controls.setPointOfInterest(point, focus: false)
        #expect(controls.focusPoint == .center)
        try controls.setPointOfInterest(point, exposure: false)
        #expect(controls.focusPoint == point)
        #expect(controls.focus.mode == .autoOnce)
        // The focus region stays inside the frame at the corner.
        let region = controls.focusRegion
        #expect(region.x + region.width <= 1 && region.y + region.height <= 1)
        #expect(region.width == 0.2)
        #expect(throws: ValueOutOfRangeError.self) { try controls.setPointOfInterest(NormalizedPoint(x: -0.1, y: 0.5)) }
    }
}
