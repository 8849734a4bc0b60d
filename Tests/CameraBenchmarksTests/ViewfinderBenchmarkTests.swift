@testable import CameraBenchmarks
import CameraCore
import Testing

@Suite("bench viewfinder")
struct ViewfinderBenchmarkTests {
    @Test("The viewfinder, pipeline and record suites' camera is serve's default: raw RGGB, 12 bits, at 30 fps",
          arguments: [PixelSize(width: 1280, height: 720), PixelSize(width: 1920, height: 1080)])
    func defaultCamera(size: PixelSize) throws {
        let camera = try BenchViewfinder.defaultCamera(size: size)
        #expect(camera.activeFormat.pixelFormat == .bayer16(.rggb, significantBits: 12))
        #expect(camera.activeFormat.size == size)
        #expect(camera.settings.frameRate == 30)
        #expect(camera.position == .back)
        #expect(try BenchViewfinder.defaultCamera(size: size, position: .front).position == .front)
    }

    @Test("A short run reports the viewer beside the camera, each camera beside the 30 fps asked (one, then two), and the cores used")
    func rows() async throws {
        let rows = try await ViewfinderBenchmark.run(seconds: 2, progress: .silent)
        #expect(rows.map(\.name) == ["viewfinder-720p-viewer", "viewfinder-720p-viewer-longest-gap", "viewfinder-720p-camera",
                                     "viewfinder-720p-camera-slowest-second", "viewfinder-720p-cpu", "viewfinder-two-720p-cameras-back",
                                     "viewfinder-two-720p-cameras-front", "viewfinder-two-720p-cameras-cpu"])
        #expect(rows.map(\.peer) == ["camera", "frame-interval", "asked", "asked", nil, "asked", "asked", nil])
        #expect(rows.map(\.unit) == ["fps", "ms", "fps", "fps", "cores", "fps", "fps", "cores"])
        for row in rows { #expect(row.ours > 0, "\(row)") }
        let viewer = rows[0], camera = rows[2]
        #expect(viewer.peerValue == camera.ours)
        #expect(try abs(#require(viewer.ratio) - viewer.ours / camera.ours) < 1e-12)
    }
}
