import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraStills

/// A camera running in a capture session set up for photos: what `camerasun photo` and
/// `bench photo` shoot with.
///
/// ```
///  device.configure { exposure mode, bias, metering, focus mode }
///  camera ──────────► CaptureSession ─┬─► PhotoOutput ─────► PhotoSaver ─► PhotoLibrary
///   (3A on every frame)               └─► VideoDataOutput ─► waitForExposure
/// ```
public struct PhotoCamera: Sendable {
    /// How many frames auto-exposure may search before the photos are taken anyway: 5 s at 30 fps,
    /// where every built-in scene converges in under 30.
    public static let exposureFrames = 150
    /// How long the camera may take to deliver those frames (a frame-less camera fails after it).
    public static let exposureWait = Duration.seconds(30)

    /// How the device exposes and focuses: set before the session starts, carried out by its 3A engine.
    public struct Settings: Sendable {
        /// `.continuousAuto`, or `.custom(duration:gain:)` for `--shutter/--gain`.
        public var exposureMode: AutoExposure.Mode
        /// Exposure compensation in EV (`--ev`).
        public var bias: Double
        public var metering: MeteringMode
        public var focusMode: FocusMode

        public init(exposureMode: AutoExposure.Mode = .continuousAuto, bias: Double = 0, metering: MeteringMode = .sunAware,
                    focusMode: FocusMode = .continuous) {
            self.exposureMode = exposureMode
            self.bias = bias
            self.metering = metering
            self.focusMode = focusMode
        }
    }

    public let camera: any CaptureDevice
    public let settings: Settings
    public let session: CaptureSession
    public let photos: PhotoOutput
    public let frames: VideoDataOutput

    /// Configures `camera` with `settings` and starts a session feeding a photo output (EXIF Model:
    /// the camera's name) and a frame output. A fixed shutter longer than a frame lowers the frame
    /// rate to fit it (otherwise the frame rate would win and shorten the shutter).
    public static func start(_ camera: any CaptureDevice, settings: Settings) async throws -> PhotoCamera {
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
    /// `frameLimit` frames and at most `limit` of wall-clock time (`ExposureWait`).
    public func waitForExposure(frames frameLimit: Int = exposureFrames, within limit: Duration = exposureWait) async -> ExposureWait? {
        await ExposureWait.first(in: frames, frames: frameLimit, within: limit) { [self] in isSettled($0) }
    }

    /// Whether `frame` was taken as the photos should be: auto-exposure and white balance no longer
    /// searching (`ThreeAStatus.isSettled`: the photo has the viewfinder's settled colour), the
    /// bias ramp at its target, and a fixed exposure arrived at the sensor (which applies exposure
    /// a frame or two after it is asked for, while the engine reports a fixed exposure at once).
    public func isSettled(_ frame: CapturedFrame) -> Bool {
        let metadata = frame.metadata
        guard frame.threeA.isSettled, abs(metadata.exposureBias - settings.bias) < 1e-6 else { return false }
        if case .custom(let duration, let gain) = settings.exposureMode {
            return abs(metadata.exposureDuration.seconds / duration - 1) < 0.01 && abs(metadata.analogueGain / gain - 1) < 0.01
        }
        return true
    }

    public func stop() async {
        await session.stop()
    }
}
