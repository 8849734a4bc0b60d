import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraSimulated

/// A camera running in a capture session set up for photos: what `camerasun photo` and
/// `bench photo` shoot with.
///
/// ```
///  device.configure { exposure mode, bias, metering, focus mode }
///  SimulatedCamera ─► CaptureSession ─┬─► PhotoOutput ─────► PhotoSaver ─► PhotoLibrary
///   (3A on every frame)               └─► VideoDataOutput ─► waitForExposure
/// ```
struct PhotoCamera: Sendable {
    /// How the device exposes and focuses: set before the session starts, carried out by its 3A engine.
    struct Settings: Sendable {
        /// `.continuousAuto`, or `.custom(duration:gain:)` for `--shutter/--gain`.
        var exposureMode: AutoExposure.Mode = .continuousAuto
        /// Exposure compensation in EV (`--ev`).
        var bias = 0.0
        var metering = MeteringMode.sunAware
        var focusMode = FocusMode.continuous
    }

    /// What `waitForExposure` saw.
    struct ExposureWait: Sendable {
        /// The last frame seen: the first settled one, or the one current at the deadline.
        let frame: CapturedFrame
        /// False when the exposure had not settled by the deadline.
        let settled: Bool
    }

    let camera: any CaptureDevice
    let settings: Settings
    let session: CaptureSession
    let photos: PhotoOutput
    let frames: VideoDataOutput

    /// Configures `camera` with `settings` and starts a session feeding a photo output (EXIF Model:
    /// the camera's name) and a frame output. A fixed shutter longer than a frame lowers the frame
    /// rate to fit it (otherwise the frame rate would win and shorten the shutter).
    static func start(_ camera: any CaptureDevice, settings: Settings) async throws -> PhotoCamera {
        try camera.configure { device in
            device.exposureMode = settings.exposureMode
            device.exposureBias = settings.bias
            device.meteringMode = settings.metering
            device.focusMode = settings.focusMode
            if case .custom(let duration, _) = settings.exposureMode, 1 / duration < device.frameRate * (1 - 1e-9) {
                device.frameRate = 1 / duration
            }
        }
        let photos = PhotoOutput(model: camera.localizedName)
        let frames = VideoDataOutput()
        let session = CaptureSession()
        try await session.configure { configuration in
            try configuration.add(DeviceInput(camera))
            try configuration.add(photos)
            try configuration.add(frames)
        }
        try await session.start()
        return PhotoCamera(camera: camera, settings: settings, session: session, photos: photos, frames: frames)
    }

    /// Waits until the frames have the exposure the photos are meant to have (`isSettled`): at most
    /// `frameLimit` frames — auto-exposure converges in frames, however long each takes to come —
    /// and at most `limit` of wall-clock time. Throws when no frame at all arrived in that time.
    func waitForExposure(frames frameLimit: Int, within limit: Duration) async throws(CLIError) -> ExposureWait {
        let frames = frames.frames
        let watcher = Task { [self] () -> ExposureWait? in
            var end: UInt64?, last: CapturedFrame?
            // The loop ends with nil when the deadline cancels this task.
            for await frame in frames {
                if isSettled(frame) { return ExposureWait(frame: frame, settled: true) }
                last = frame
                // Counted by sequence number: frames the watcher was too slow to see count too.
                let limit = end ?? frame.sequenceNumber + UInt64(frameLimit)
                if frame.sequenceNumber >= limit { break }
                end = limit
            }
            return last.map { ExposureWait(frame: $0, settled: false) }
        }
        let deadline = Task {
            try await Task.sleep(for: limit)
            watcher.cancel()
        }
        defer { deadline.cancel() }
        guard let wait = await watcher.value else {
            throw .runtime("no frame from \(camera.localizedName) within \(limit.seconds) s — "
                + "check that the camera works (`camerasun meter --source \(camera.uniqueID) --frames 5`)")
        }
        return wait
    }

    /// Whether `frame` was taken as the photos should be: auto-exposure no longer searching, the
    /// bias ramp at its target, and a fixed exposure arrived at the sensor (which applies exposure
    /// a frame or two after it is asked for, while the engine reports a fixed exposure at once).
    func isSettled(_ frame: CapturedFrame) -> Bool {
        let metadata = frame.metadata
        guard frame.threeA.exposureState != .searching, abs(metadata.exposureBias - settings.bias) < 1e-6 else { return false }
        if case .custom(let duration, let gain) = settings.exposureMode {
            return abs(metadata.exposureDuration.seconds / duration - 1) < 0.01 && abs(metadata.analogueGain / gain - 1) < 0.01
        }
        return true
    }

    func stop() async {
        await session.stop()
    }
}
