import CameraCapture
import CameraCore
import CameraRecording
import CameraStills
import HTTPServer

/// The viewfinder's camera, or its two (a back and a front one, AVCaptureMultiCamSession's idea),
/// in one `CaptureSession`: the main camera feeds the preview, the movie and the live stream (which
/// goes on across a switch: both cameras run at one size); the other feeds the
/// picture-in-picture inset. Each camera feeds its own photo output, never mirrored (photos show
/// the scene as it is, as phones do), while a front camera's preview is (its connection mirrors
/// automatically).
///
/// `switchMain` reconnects the preview, the movie and the inset in one configuration, so the
/// preview is never fed by both cameras or by none — the front/back switch without a ghost input.
final class ViewfinderCameras: Sendable {
    /// A camera and the photo output it feeds (its EXIF names this camera, its zero-shutter-lag
    /// frame is this camera's).
    struct Camera: Sendable {
        let device: any CaptureDevice
        let photos: PhotoOutput

        var input: DeviceInput { DeviceInput(device) }
    }

    let session: CaptureSession
    /// One camera, or two facing back and front.
    let cameras: [Camera]
    let preview: PreviewOutput
    /// The connection feeding the preview: its rotation and mirroring map taps to device points.
    let previewConnection: CaptureConnection
    /// The other camera's small preview, drawn into the main one's corner; nil with one camera.
    let inset: PreviewOutput?
    /// Takes from the main camera, and its live stream; nil when its size cannot be encoded (H.264
    /// 4:2:0 needs even sides).
    let movie: MovieFileOutput?
    let live: LiveStreamOutput?
    /// Which of `cameras` feeds the preview.
    private let mainIndex = Locked(0)

    private init(session: CaptureSession, cameras: [Camera], preview: PreviewOutput, previewConnection: CaptureConnection,
                 inset: PreviewOutput?, movie: MovieFileOutput?, live: LiveStreamOutput?) {
        self.session = session
        self.cameras = cameras
        self.preview = preview
        self.previewConnection = previewConnection
        self.inset = inset
        self.movie = movie
        self.live = live
    }

    /// `main` (and `second`) configured in `session`, with a preview fitting `previewSize` at
    /// `previewFrameRate` and an inset a quarter of the preview's width. Throws when the second camera does
    /// not suit (`CameraViewfinder.checkSecondCamera`) or the session refuses the configuration.
    static func configure(main: any CaptureDevice, second: (any CaptureDevice)?, in session: CaptureSession, previewSize: PixelSize,
                          previewFrameRate: Double) async throws -> ViewfinderCameras {
        if let second { try CameraViewfinder.checkSecondCamera(second, main: main) }
        let cameras = ([main] + (second.map { [$0] } ?? [])).map { device in
            Camera(device: device, photos: PhotoOutput(make: "CameraSun", model: device.localizedName))
        }
        let preview = try PreviewOutput(maximumSize: previewSize, maximumFrameRate: previewFrameRate)
        let size = main.activeFormat.size
        // A quarter of the width the preview shows (both cameras run at one size).
        let shown = PreviewScaler.fittedSize(size, within: previewSize)
        let inset = try second.map { _ in
            try PreviewOutput(maximumSize: PixelSize(width: max(2, shown.width / 4), height: max(2, shown.height / 4)),
                              maximumFrameRate: previewFrameRate)
        }
        let encodable = size.width % 2 == 0 && size.height % 2 == 0
        let (movie, live) = encodable ? (MovieFileOutput(), LiveStreamOutput()) : (nil, nil)
        var previewConnection: CaptureConnection?
        try await session.configure { config in
            for camera in cameras { try config.add(camera.input) }
            previewConnection = try config.add(preview, from: cameras[0].input)
            for camera in cameras { try config.add(camera.photos, from: camera.input).isVideoMirrored = false }
            if let movie { try config.add(movie, from: cameras[0].input) }
            if let live { try config.add(live, from: cameras[0].input) }
            if let inset { try config.add(inset, from: cameras[1].input) }
        }
        // The preview is in the configuration just committed, so it has a connection.
        return ViewfinderCameras(session: session, cameras: cameras, preview: preview, previewConnection: previewConnection!,
                                 inset: inset, movie: movie, live: live)
    }

    /// The camera feeding the preview, the movie and the photos.
    var main: Camera { cameras[mainIndex.withLock { $0 }] }

    /// The camera in the inset, or nil with one camera.
    var other: Camera? {
        cameras.count > 1 ? cameras[1 - mainIndex.withLock { $0 }] : nil
    }

    /// `/state`'s `camera`: where the main camera faces, and the inset's camera.
    var state: ViewfinderState.Camera {
        ViewfinderState.Camera(position: main.device.position.rawValue, pip: other?.device.position.rawValue)
    }

    /// Makes the camera facing `position` the main one, in one configuration: the preview and the
    /// movie are connected to it and the inset to the other. The camera already main changes
    /// nothing. No such camera is a 400 naming the cameras there are; a take recording is a 409.
    func switchMain(to position: DevicePosition) async throws {
        guard let target = cameras.firstIndex(where: { $0.device.position == position }) else {
            let present = cameras.map { "\($0.device.uniqueID) facing \($0.device.position.rawValue)" }.joined(separator: " and ")
            throw HTTPError.badRequest("there is no \(position.rawValue) camera — the viewfinder has \(present)"
                + (cameras.count == 1 ? "; start it with --source2 SPEC,position=front for a second camera" : ""))
        }
        guard target != mainIndex.withLock({ $0 }) else { return }
        if movie?.status.isRecording == true {
            throw HTTPError.conflict("a take is recording from the \(main.device.position.rawValue) camera — "
                + "stop it (POST /api/record {\"action\":\"stop\"}) before switching cameras")
        }
        let (main, other) = (cameras[target], cameras[1 - target])
        try await session.configure { [preview, movie, live, inset] config in
            try config.connect(preview, to: main.input)
            if let movie { try config.connect(movie, to: main.input) }
            if let live { try config.connect(live, to: main.input) }
            if let inset { try config.connect(inset, to: other.input) }
        }
        // Read back from the session, which applies configurations one at a time: racing switches
        // leave the index as the last configuration left the preview.
        let feeding = await session.configuration.input(feeding: preview)?.device
        mainIndex.withLock { index in
            index = cameras.firstIndex { $0.device === feeding } ?? index
        }
    }
}
