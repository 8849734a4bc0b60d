import CameraCapture
import CameraSystem
import CameraV4L2
import Testing

@Suite("KernelDriver")
struct KernelDriverTests {
    @Test("a file that is not a V4L2 node (/dev/null: ENOTTY on the real kernel) is named as such, with what to give instead")
    func notVideo() throws {
        let seam = SystemCallSeam()
        #expect(throws: CaptureError.invalidConfiguration("/dev/null is not a video device (it answers no V4L2 request) — give a camera's "
                                                          + "node, e.g. v4l2:/dev/video0; camerasun devices lists them")) {
            try seam.run { () throws(CaptureError) in _ = try V4L2Camera(path: "/dev/null") }
        }
        #expect(seam.calls == [.init(.open, "/dev/null"), .init(.ioctl, "/dev/null"), .init(.close, "/dev/null")])
    }

    @Test("a node that does not exist when the camera is first opened is a missing camera, not an interrupted one")
    func neverThere() throws {
        #expect(throws: CaptureError.invalidConfiguration("there is no /dev/video-never — plug the camera in or check the path; "
                                                          + "camerasun devices lists the cameras found")) {
            try SystemCallSeam().run { () throws(CaptureError) in _ = try V4L2Camera(path: "/dev/video-never") }
        }
    }

    @Test("EACCES from the real open(2) becomes the video group remedy")
    func denied() throws {
        let seam = SystemCallSeam()
        seam.fail(.open, with: .permissionDenied)
        #expect(throws: CaptureError.notAuthorized(device: "/dev/null",
                                                   remedy: "add your user to the video group: sudo usermod -aG video $USER, then log in again")) {
            try seam.run { () throws(CaptureError) in _ = try V4L2Camera(path: "/dev/null") }
        }
        #expect(seam.calls == [.init(.open, "/dev/null")])
    }
}
