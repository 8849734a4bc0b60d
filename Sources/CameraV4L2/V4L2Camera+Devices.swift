import CameraCapture
import CameraSystem

/// A video capture node found under /dev, and the camera on it or why it cannot be used.
public struct V4L2CaptureNode: Sendable {
    public let path: String
    public let camera: Result<V4L2Camera, CaptureError>
}

extension V4L2Camera {
    /// Every `video*` node in `directory` that is a video capture device with streaming I/O, in
    /// number order (video2 before video10). Nodes that are something else (a UVC camera's
    /// metadata node) are left out; one that cannot be opened (EACCES, EBUSY) is listed with
    /// the error, which says what to do.
    public static func captureDevices(in directory: String = "/dev",
                                      driver: any V4L2Driver = KernelDriver()) throws(SystemCallError) -> [V4L2CaptureNode] {
        let numbered = try FileSystem.entries(of: directory).compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, "\(directory)/\(name)")
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { (_, path) -> V4L2CaptureNode? in
            do throws(SystemCallError) {
                guard try driver.open(path).queryCapabilities().isStreamingCapture else { return nil }
            } catch {
                return V4L2CaptureNode(path: path, camera: .failure(.v4l2(error)))
            }
            return V4L2CaptureNode(path: path, camera: Result { () throws(CaptureError) in try V4L2Camera(path: path, driver: driver) })
        }
    }
}
