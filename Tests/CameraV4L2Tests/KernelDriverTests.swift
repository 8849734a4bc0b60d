import CameraCapture
import CameraSystem
import CameraV4L2
import Testing

@Suite("KernelDriver")
struct KernelDriverTests {
    @Test("the real kernel's answer for a node that is not V4L2 (/dev/null: ENOTTY) names the request, through CameraSystem's seam")
    func notVideo() throws {
        let seam = SystemCallSeam()
        #expect(throws: CaptureError.deviceFailure(device: "/dev/null",
                                                   detail: "cannot query the capabilities of /dev/null: Inappropriate ioctl for device")) {
            try seam.run { () throws(CaptureError) in _ = try V4L2Camera(path: "/dev/null") }
        }
        #expect(seam.calls == [.init(.open, "/dev/null"), .init(.ioctl, "/dev/null"), .init(.close, "/dev/null")])
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
