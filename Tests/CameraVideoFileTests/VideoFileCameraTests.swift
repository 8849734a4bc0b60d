import CameraCapture
import CameraCore
import CameraTestSupport
import CameraVideoFile
import Foundation
import Testing

@Suite("VideoFileCamera: a video file as a camera")
struct VideoFileCameraTests {
    /// A 64x48 test pattern of three frames at 10 fps, made by ffmpeg.
    static func threeFrames(in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("pattern.mp4").path
        let made = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10",
                                                   "-frames:v", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
        #expect(made.status == 0, "\(made.errors)")
        return path
    }

    /// The times of the camera's next `count` frames, read flat out.
    static func times(of camera: VideoFileCamera, count: Int) async throws -> [Double] {
        var times: [Double] = []
        for _ in 0..<count { times.append(try await camera.nextFrame().presentationTime.seconds) }
        return times
    }

    @Test("A file that is not there is refused, naming it")
    func missingFile() {
        let error = #expect(throws: CaptureError.self) { try VideoFileCamera(path: "/nonexistent/clip.mp4", realtime: false) }
        guard case .deviceFailure(let device, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(device == "file:/nonexistent/clip.mp4")
    }

    @Test("Played once, the file's frames come with its own times, then the stream ends")
    func playsOnce() async throws {
        try await withScratchDirectory { directory in
            let camera = try VideoFileCamera(path: try await Self.threeFrames(in: directory), realtime: false, loops: false)
            #expect(camera.formats.map(\.size) == [PixelSize(width: 64, height: 48)])
            try camera.startStreaming()
            let times = try await Self.times(of: camera, count: 3)
            #expect(zip(times, [0, 0.1, 0.2]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
            await #expect(throws: CaptureError.ended(device: camera.uniqueID)) { try await camera.nextFrame() }
        }
    }

    @Test("Looping, the next pass follows the last frame at the file's spacing")
    func loops() async throws {
        try await withScratchDirectory { directory in
            let camera = try VideoFileCamera(path: try await Self.threeFrames(in: directory), realtime: false)
            try camera.startStreaming()
            let times = try await Self.times(of: camera, count: 7)
            #expect(zip(times, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
        }
    }
}
