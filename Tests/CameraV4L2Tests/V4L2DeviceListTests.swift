import CameraCapture
import CameraTestSupport
import CameraV4L2
import Foundation
import Testing

@Suite("V4L2Camera.captureDevices")
struct V4L2DeviceListTests {
    /// A folder holding empty files named as /dev's video nodes, for the scripted driver to answer for.
    private func withNodes(_ names: [String], _ body: (String) throws -> Void) throws {
        try withScratchDirectory { directory in
            for name in names { #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)) }
            try body(directory.path)
        }
    }

    @Test("lists the capture nodes among video*, leaving out a metadata node and other names")
    func listsCaptureNodes() throws {
        try withNodes(["video0", "video1", "vbi0", "videox"]) { directory in
            let driver = ScriptedV4L2Driver(path: "\(directory)/video0", metadataNodes: ["\(directory)/video1"])
            let nodes = try V4L2Camera.captureDevices(in: directory, driver: driver)
            #expect(nodes.map(\.path) == ["\(directory)/video0"])
            let camera = try nodes[0].camera.get()
            #expect(camera.formats.count == 8)
            #expect(camera.uniqueID == "\(directory)/video0")
        }
    }

    @Test("a node that cannot be opened is listed with the error that says what to do")
    func listsDeniedNode() throws {
        try withNodes(["video1", "video0"]) { directory in
            let driver = ScriptedV4L2Driver(path: "\(directory)/video0", metadataNodes: ["\(directory)/video1"])
            driver.fail(.open, with: .permissionDenied)
            let nodes = try V4L2Camera.captureDevices(in: directory, driver: driver)
            #expect(nodes.map(\.path) == ["\(directory)/video0"])
            #expect(throws: CaptureError.notAuthorized(device: "\(directory)/video0",
                                                       remedy: "add your user to the video group: sudo usermod -aG video $USER, then log in again")) {
                try nodes[0].camera.get()
            }
        }
    }

    @Test("nodes come in number order: video2 before video10")
    func numberOrder() throws {
        try withNodes(["video10", "video2"]) { directory in
            let driver = ScriptedV4L2Driver(path: "\(directory)/video10", metadataNodes: ["\(directory)/video2"])
            #expect(try V4L2Camera.captureDevices(in: directory, driver: driver).map(\.path) == ["\(directory)/video10"])
            driver.clearLog()
            _ = try V4L2Camera.captureDevices(in: directory, driver: driver)
            #expect(Array(driver.log.prefix(2)) == ["open \(directory)/video2", "VIDIOC_QUERYCAP"])
        }
    }
}
