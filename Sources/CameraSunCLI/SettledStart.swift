import CameraCapture

/// A take or a stream begins once the camera's 3A has settled (`ExposureWait`), so that its first
/// frame already has the exposure and colour the rest will have; a video file, whose exposure is
/// the file's own, begins at its first frame.
enum SettledStart {
    /// How many frames 3A may search before the take or stream begins anyway.
    static let frames = 30
    /// How long the camera may take to deliver them; a camera that delivers none fails the session.
    static let wait = Duration.seconds(3)

    /// Waits on `watcher` (an output of `session`, fed by `device`) for the first settled frame,
    /// then disconnects it and takes the frame it still holds, so that it costs the take nothing.
    static func wait(on watcher: VideoDataOutput, in session: CaptureSession, for device: any CaptureDevice) async {
        if device.capabilities.exposureIsSettable {
            _ = await ExposureWait.first(in: watcher, frames: frames, within: wait)
        }
        await session.connection(for: watcher)?.isEnabled = false
        var frames = watcher.frames.makeAsyncIterator()
        while watcher.framesWaiting > 0 { _ = await frames.next() }
    }
}
