import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2

/// A camera on a scripted vivid-like driver at /dev/video0, its probe's requests forgotten.
func scriptedCamera(controls: [V4L2ControlRange] = ScriptedV4L2Driver.standardControls) throws -> (ScriptedV4L2Driver, V4L2Camera) {
    let driver = ScriptedV4L2Driver(controls: controls)
    let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
    driver.clearLog()
    return (driver, camera)
}

/// A streaming camera on a scripted driver, the requests so far forgotten.
func streamingCamera(controls: [V4L2ControlRange] = ScriptedV4L2Driver.standardControls) throws -> (ScriptedV4L2Driver, V4L2Camera) {
    let (driver, camera) = try scriptedCamera(controls: controls)
    try camera.startStreaming()
    driver.clearLog()
    return (driver, camera)
}

/// The distinct byte values of a buffer's plane.
func distinctBytes(_ buffer: PixelBuffer, plane: Int) -> Set<UInt8> {
    Set(buffer.bytes(plane: plane))
}

let size640 = PixelSize(width: 640, height: 480)
let size1280 = PixelSize(width: 1280, height: 720)
