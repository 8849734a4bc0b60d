import CameraCapture

/// A take or a stream begins once the camera's 3A has settled (`ExposureWait`), so that its first
/// frame already has the exposure and colour the rest will have; a video file, whose exposure is
/// the file's own, begins at its first frame.
enum SettledStart {
    /// How many frames 3A may search before the take or stream begins anyway.
    static let frames = 30
    /// How long the camera may take to deliver them; a camera that delivers none fails the session.
    static let wait = Duration.seconds(3)

    /// Waits on `watcher` (an output of `device`'s session) for the first settled frame.
    static func wait(on watcher: VideoDataOutput, for device: any CaptureDevice) async {
        guard device.capabilities.exposureIsSettable else { return }
        _ = await ExposureWait.first(in: watcher, frames: frames, within: wait)
    }
}
