import CameraCapture
import CameraCore
import CameraSimulated

/// The capture flags `meter`, `photo` and `serve` share (CLI.md, "Common capture flags"): the
/// source, the format asked for, the simulated camera's noise seed and its pacing, and the camera
/// settings of `SettingsFlags`. Each command gives its own size and pacing.
struct CaptureFlags {
    let source: SourceSpec
    /// `--width`×`--height` at `--framerate` (default 30 fps): raw from the simulated camera, whose
    /// frames CameraSun's image pipeline renders, any pixel format from a V4L2 camera.
    let request: FormatRequest
    /// `--framerate`, as asked for: what a take's shortest duration is measured in.
    let frameRate: Double
    let seed: UInt64
    let realtime: Bool
    /// `--once`: a file source ends after its last frame instead of playing again.
    let once: Bool
    let settings: SettingsFlags

    /// The frame sizes `--width` and `--height` may ask for, in pixels: from the smallest the image
    /// pipeline develops to the largest any frame buffer is laid out at.
    static let sizeRange = 16...16384

    /// Takes the flags out of `arguments`.
    init(_ arguments: inout ArgumentList, size: PixelSize, realtime defaultRealtime: Bool) throws(CLIError) {
        source = try arguments.option("source").map { (text: String) throws(CLIError) in try SourceSpec(parsing: text) } ?? SourceSpec.firstCamera()
        let width = try arguments.integer("width", in: Self.sizeRange, unit: "pixels") ?? size.width
        let height = try arguments.integer("height", in: Self.sizeRange, unit: "pixels") ?? size.height
        // Any positive rate: the camera's own range is what an error names (`OpenedCamera.choose`).
        frameRate = try arguments.option("framerate", expected: "a positive number of frames per second") { text in
            Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        } ?? 30
        seed = try arguments.seed()
        realtime = arguments.toggle("realtime") ?? defaultRealtime
        once = arguments.flag("once")
        let playsAFile = if case .file = source { true } else { false }
        if once && !playsAFile { throw .usage("--once plays a video file once — it takes a --source file:PATH") }
        settings = try SettingsFlags(&arguments)
        // The simulated sensor is asked for raw, which CameraSun develops; a V4L2 camera for whichever
        // of its formats fits (a file plays as it is).
        let pixelFormat: PixelFormat? = if case .simulated = source { .bayer16(.rggb, significantBits: 12) } else { nil }
        request = FormatRequest(size: PixelSize(width: width, height: height), frameRate: frameRate, pixelFormat: pixelFormat)
    }

    /// The camera the flags describe, set to the format that best meets the request and to the
    /// settings flags. A frame rate no format of the camera delivers is a usage error naming the
    /// camera's range. A simulated camera marks each whole second when its source asks
    /// (`sim:SCENE,syncmarks`).
    func openCamera() throws -> OpenedCamera {
        try open(source, position: .back)
    }

    /// The second camera (`serve --source2`), opened as the first: the same format request,
    /// pacing and settings flags.
    func openSecondCamera(_ second: SecondSource) throws -> OpenedCamera {
        try open(second.source, position: second.position)
    }

    private func open(_ source: SourceSpec, position: DevicePosition) throws -> OpenedCamera {
        let opened = try source.openCamera(request: request, seed: seed, pacing: realtime ? .realtime : .virtual, once: once,
                                           position: position)
        try settings.apply(to: opened.device)
        return opened
    }
}

/// A camera opened for a command, with the format chosen for it and why, when that is not the
/// one asked for.
struct OpenedCamera {
    let device: any CaptureDevice
    let format: FormatChoice

    /// Picks the format for `request` among `formats`, checking the frame rate against what the
    /// camera can deliver at all.
    static func choose(_ request: FormatRequest, among formats: [DeviceFormat]) throws -> FormatChoice {
        if let rate = request.frameRate, let span = FormatSelection.frameRateSpan(of: formats) {
            do {
                _ = try ValueOutOfRangeError.check(rate, in: span, setting: "--framerate", unit: "fps")
            } catch {
                throw CLIError.usage("\(error)")
            }
        }
        do {
            return try FormatSelection.best(for: request, in: formats)
        } catch {
            throw CLIError.usage("\(error)")
        }
    }

    /// The note a command prints when the format is not the one asked for.
    var fallbackNote: String? {
        format.fallbackReason.map { "camerasun: note: \($0)" }
    }
}
