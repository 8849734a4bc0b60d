import CameraCapture
import CameraCore
import CameraSimulated

/// The size every recording test records at.
public let recordingSize = PixelSize(width: 160, height: 90)

/// A streaming simulated camera on `scene` at `recordingSize`, 30 fps, in `pixelFormat`.
public func recordingCamera(_ scene: SimulatedScene, _ pixelFormat: PixelFormat = .bgra8) throws -> SimulatedCamera {
    let format = DeviceFormat(size: recordingSize, pixelFormat: pixelFormat, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
    let camera = try SimulatedCamera(scene: scene, format: format, frameRate: 30)
    try camera.startStreaming()
    return camera
}

/// A path for a movie in a scratch directory, removed afterwards.
public func withTemporaryFile(_ body: (String) async throws -> Void) async throws {
    try await withScratchDirectory { try await body($0.appendingPathComponent("movie.mp4").path) }
}
