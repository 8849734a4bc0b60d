import CameraAudio
import CameraCapture
import CameraCore
import CameraSimulated
import CameraTestSupport
import Foundation
import HTTPServer
import PhotoLibrary
import Viewfinder

/// The real viewfinder on a real-time simulated camera at 30 fps, with its photos in a temporary
/// library, started and running steadily: what `bench pipeline` and `bench server` measure.
struct BenchViewfinder {
    let viewfinder: CameraViewfinder
    let configuration: CameraViewfinder.Configuration
    private let running: Task<Void, any Error>
    private let directory: URL

    /// The camera `camerasun serve` opens with no flags but the size: backlit-portrait, seed 1, raw
    /// RGGB at 30 fps in real time, so that every frame is developed, denoised spatially and
    /// temporally and tone-mapped locally, as `make run`'s are.
    /// Facing `position`: `--source2`'s second camera faces the front.
    static func defaultCamera(size: PixelSize, position: DevicePosition = .back) throws -> SimulatedCamera {
        let request = FormatRequest(size: size, frameRate: 30, pixelFormat: .bayer16(.rggb, significantBits: 12))
        let choice = try FormatSelection.best(for: request, in: SimulatedCamera.formats(offering: size))
        return try SimulatedCamera(scene: .backlitPortrait, format: choice.format, frameRate: choice.frameRate, seed: 1, pacing: .realtime,
                                   position: position)
    }

    /// A simulated camera on backlit-portrait delivering bgra8 pictures of `size` at 30 fps in real
    /// time, with no ISP: for `bench server`, which times the server apart from the ISP.
    static func bgra8Camera(size: PixelSize) throws -> SimulatedCamera {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        return try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: 30, pacing: .realtime)
    }

    /// Serves `camera` (and `second` picture-in-picture, as `--source2` does) on a free loopback
    /// port, its takes with `microphone`'s sound, and returns once it delivers 30 frames a second.
    static func start(on camera: any CaptureDevice, second: (any CaptureDevice)? = nil, label: String, progress: BenchmarkProgress,
                      microphone: SimulatedMicrophone? = nil) async throws -> BenchViewfinder {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-bench-\(UUID().uuidString)")
        let configuration = CameraViewfinder.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0), microphone: microphone)
        let viewfinder = try await CameraViewfinder.start(device: camera, secondDevice: second, library: try PhotoLibrary(directory: directory),
                                                          configuration: configuration)
        let bench = BenchViewfinder(viewfinder: viewfinder, configuration: configuration,
                                    running: Task { try await viewfinder.run() }, directory: directory)
        do {
            try await viewfinder.firstFrame()
            progress.show("\(label): waiting for the camera to run steadily…")
            try await steadyFrames(of: viewfinder, frameRate: 30)
        } catch {
            await bench.stop()
            bench.remove()
            throw error
        }
        return bench
    }

    /// Reads `/stream` part by part, as a viewer's page does, until the viewfinder stops.
    static func watchPreview(port: UInt16) throws {
        let connection = try RawHTTPConnection(port: port)
        defer { connection.close() }
        let head = try connection.openStream("/stream")
        guard head.status == 200 else { throw BenchmarkError("GET /stream answered \(head.status) — run the benchmark again") }
        while true { _ = try connection.nextPart() }
    }

    /// Stops the viewfinder and its camera.
    func stop() async {
        running.cancel()
        await viewfinder.stop()
    }

    /// Removes the temporary library.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Returns once the camera delivers `frameRate` frames a second steadily (at most after 30 s): a
    /// simulated camera that fell behind while it started renders the frames it owes as fast as it
    /// can, and timing that catching up would not time the viewfinder.
    private static func steadyFrames(of viewfinder: CameraViewfinder, frameRate: Double) async throws {
        var previous = viewfinder.latestFrame?.sequenceNumber ?? 0
        for _ in 0..<30 {
            try await Task.sleep(for: .seconds(1))
            let latest = viewfinder.latestFrame?.sequenceNumber ?? 0
            let delivered = Double(latest) - Double(previous)
            if delivered >= 0.9 * frameRate, delivered <= 1.1 * frameRate { return }
            previous = latest
        }
    }
}
